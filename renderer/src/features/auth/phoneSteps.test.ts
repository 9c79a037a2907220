import { describe, expect, test } from 'vitest';
import { installSteps, phoneKind } from './phoneSteps.ts';

// The guided page must give each phone the taps of its own system: a wrong path in Settings
// leaves a parent lost halfway through installing Hearth's certificate.
describe('phoneKind', () => {
  test('an iPhone on iOS 17 in Safari', () => {
    const ua =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
    expect(phoneKind(ua)).toEqual({ os: 'ios', version: 17, safari: true });
  });
  test('Chrome on an iPhone is not Safari', () => {
    const ua =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 16_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0 Mobile/15E148 Safari/604.1';
    expect(phoneKind(ua)).toEqual({ os: 'ios', version: 16, safari: false });
  });
  test('an iPad that says it is a Mac is known by its touch screen', () => {
    const ua = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15';
    expect(phoneKind(ua, 5).os).toBe('ios');
    expect(phoneKind(ua, 0).os).toBe('other');
  });
  test('Android with and without its version', () => {
    expect(phoneKind('Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 Chrome/131 Mobile Safari/537.36')).toEqual({
      os: 'android',
      version: 14,
      safari: false,
    });
    expect(phoneKind('Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 Chrome/131 Mobile Safari/537.36').version).toBe(10);
  });
});

describe('installSteps', () => {
  test('iOS 15 and later find the profile under VPN & Device Management, older under Profiles', () => {
    expect(installSteps({ os: 'ios', version: 17, safari: true }, 'Hearth home network').join(' ')).toContain(
      'General → VPN & Device Management',
    );
    expect(installSteps({ os: 'ios', version: 14, safari: true }, 'x').join(' ')).toContain('General → Profiles');
    expect(installSteps({ os: 'ios', version: 17, safari: true }, 'Hearth home network').join(' ')).toContain(
      'Certificate Trust Settings (at the very bottom) and turn on "Hearth home network"',
    );
  });
  test('Android 13+, 11-12 and 10- each get their own way to a CA certificate', () => {
    expect(installSteps({ os: 'android', version: 14, safari: false }, 'x').join(' ')).toContain(
      'Security & privacy → More security & privacy',
    );
    expect(installSteps({ os: 'android', version: 12, safari: false }, 'x').join(' ')).toContain(
      'Security → Encryption & credentials → Install a certificate',
    );
    expect(installSteps({ os: 'android', version: 9, safari: false }, 'x').join(' ')).toContain('Install from storage');
  });
});
