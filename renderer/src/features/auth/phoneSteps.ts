/** The phone the guided page is open on, as far as its browser says. */
export interface PhoneKind {
  os: 'ios' | 'android' | 'other';
  /** The major version (iOS 17, Android 14); null when the browser hides it. */
  version: number | null;
  /** On iOS only Safari can install a profile. */
  safari: boolean;
}

export function phoneKind(userAgent: string, maxTouchPoints = 0): PhoneKind {
  const ios = /\b(iPhone|iPad|iPod)\b/.exec(userAgent) ?? (/\bMacintosh\b/.test(userAgent) && maxTouchPoints > 1 ? ['iPad'] : null);
  if (ios) {
    const version = /\bOS (\d+)[_.]\d/.exec(userAgent) ?? /\bVersion\/(\d+)/.exec(userAgent);
    const safari = !/\b(CriOS|FxiOS|EdgiOS|OPiOS|GSA)\//.test(userAgent);
    return { os: 'ios', version: version ? Number(version[1]) : null, safari };
  }
  const android = /\bAndroid (\d+)/.exec(userAgent) ?? (/\bAndroid\b/.test(userAgent) ? ['', ''] : null);
  if (android) return { os: 'android', version: android[1] ? Number(android[1]) : null, safari: false };
  return { os: 'other', version: null, safari: false };
}

/**
 * The exact taps, per system and version: where iOS lists a downloaded profile moved in iOS 15
 * (General → VPN & Device Management, before that General → Profiles), and where Android
 * installs a CA certificate moved in Android 11 (no longer by opening the file) and again in 13
 * and later (under Security & privacy).
 */
export function installSteps(phone: PhoneKind, authorityName: string): string[] {
  if (phone.os === 'ios') {
    const profiles = phone.version !== null && phone.version < 15 ? 'General → Profiles' : 'General → VPN & Device Management';
    return [
      'Tap "Download the profile" below, then tap Allow.',
      `Open the Settings app. Tap "Profile Downloaded" near the top (or go to ${profiles}) and tap the Hearth profile.`,
      'Tap Install (top right), enter your phone’s passcode, then Install again and Done. It says "Not Verified": that is expected, the profile comes from your own Hearth.',
      `In Settings, go to General → About → Certificate Trust Settings (at the very bottom) and turn on "${authorityName}". Tap Continue.`,
      'Come back to this page and tap "Check this phone".',
    ];
  }
  if (phone.os === 'android') {
    const v = phone.version;
    const where =
      v !== null && v >= 13
        ? 'Security & privacy → More security & privacy → Encryption & credentials → Install a certificate → CA certificate'
        : v !== null && v <= 10
          ? 'Security → Encryption & credentials → Install from storage (on some phones: Install certificates from storage)'
          : 'Security → Encryption & credentials → Install a certificate → CA certificate';
    return [
      'Tap "Download the certificate" below. If Chrome asks, tap Download.',
      `Open the Settings app and go to ${where}. (Phones differ: if you cannot find it, search Settings for "CA certificate".)`,
      'Tap "Install anyway" if asked, confirm with your screen lock, then choose the Hearth certificate you downloaded (in Downloads).',
      'Come back to this page and tap "Check this phone".',
    ];
  }
  return [
    'On a computer, Hearth works without this: open its address in the browser.',
    'To make a computer trust Hearth too, download the certificate below and add it to the computer’s trusted certificates (the browser’s settings, under Security → Manage certificates → Authorities).',
    'Come back to this page and tap "Check this device".',
  ];
}
