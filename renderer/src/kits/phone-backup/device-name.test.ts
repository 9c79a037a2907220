import { describe, expect, it } from 'vitest';
import { folderSafe, personalDeviceName } from './device-name.ts';

describe('the backup folder’s name', () => {
  it('is the person’s and the device’s kind, never the browser’s', () => {
    expect(personalDeviceName('Mum', 'Mozilla/5.0 (Linux; Android 14; Pixel 7) Chrome/130 Mobile Safari', true)).toBe('Mum’s phone');
    expect(personalDeviceName('Anna Smith', 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)', true)).toBe('Anna’s phone');
    expect(personalDeviceName('Dad', 'Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', false)).toBe('Dad’s tablet');
    expect(personalDeviceName('Dad', 'Mozilla/5.0 (Linux; Android 14; SM-X200) Safari', false)).toBe('Dad’s tablet');
    expect(personalDeviceName('Grandma', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130', false)).toBe('Grandma’s computer');
    expect(personalDeviceName('', 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130', false)).toBe('This computer');
  });
  it('holds no slash', () => {
    expect(personalDeviceName('A/B', 'iPhone', true)).toBe('A-B’s phone');
    expect(folderSafe('  ')).toBe('This device');
  });
});
