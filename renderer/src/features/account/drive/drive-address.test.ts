import { describe, expect, it } from 'vitest';
import { driveAddress, lastUseWords } from './drive-address.ts';

describe('driveAddress', () => {
  it('adds /dav/ to the address the app was opened at, and keeps its port', () => {
    const at = driveAddress('https://hearth.local:8420');
    expect(at.url).toBe('https://hearth.local:8420/dav/');
    expect(at.httpsUrl).toBe('https://hearth.local:8420/dav/');
    expect(at.filesUrl).toBe('davs://hearth.local:8420/dav/');
    expect(at.secure).toBe(true);
    expect(at.thisComputerOnly).toBe(false);
  });

  it('over plain http offers Windows the https spelling of the same drive, and GNOME Files dav://', () => {
    const at = driveAddress('http://192.168.1.20:8420');
    expect(at.url).toBe('http://192.168.1.20:8420/dav/');
    expect(at.httpsUrl).toBe('https://192.168.1.20:8420/dav/');
    expect(at.filesUrl).toBe('dav://192.168.1.20:8420/dav/');
    expect(at.secure).toBe(false);
  });

  it('leaves out a default port, as the browser does', () => {
    expect(driveAddress('https://photos.example.org').url).toBe('https://photos.example.org/dav/');
  });

  it('knows an address only this computer reaches (the desktop window)', () => {
    expect(driveAddress('http://127.0.0.1:8420').thisComputerOnly).toBe(true);
    expect(driveAddress('http://localhost:8420').thisComputerOnly).toBe(true);
    expect(driveAddress('http://[::1]:8420').thisComputerOnly).toBe(true);
    expect(driveAddress('http://hearth.local:8420').thisComputerOnly).toBe(false);
  });
});

describe('lastUseWords', () => {
  it('says a password no drive has used yet is never used', () => {
    expect(lastUseWords(null, () => 'x')).toBe('Never used');
  });
  it('says when it was last used', () => {
    expect(lastUseWords(5, (ms) => `at ${ms}`)).toBe('Last used at 5');
  });
});
