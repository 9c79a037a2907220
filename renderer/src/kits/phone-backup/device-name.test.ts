import { describe, expect, it } from 'vitest';
import { browserDeviceName, folderSafe } from './device-name.ts';

describe("the backup folder's device name", () => {
  it('falls back to a name a family recognises when the session has none', () => {
    expect(browserDeviceName('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', true)).toBe('iPhone');
    expect(browserDeviceName('Mozilla/5.0 (Linux; Android 14; Pixel 8) Mobile Safari', true)).toBe('Android phone');
    expect(browserDeviceName('Mozilla/5.0 (X11; Linux x86_64) Chrome/130', false)).toBe('This computer');
  });

  it('never lets a slash in a device name make a folder path', () => {
    expect(folderSafe("Mum's phone / old")).toBe("Mum's phone - old");
    expect(folderSafe('  ')).toBe('This device');
  });
});
