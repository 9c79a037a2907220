import UAParser from 'ua-parser-js';
import { checkReadableName } from '../common/readable-names.ts';

/*
 * ua-parser-js (1.x, MIT) rather than our own expressions: browsers dress up as each other
 * (Chrome on an iPhone says "CriOS" and Safari, Samsung Internet and Edge say Chrome, an iPad
 * says Macintosh), phones put their model where each maker likes, and the library's tables
 * follow them release after release. It runs here on the server, so the web app's first
 * screen carries none of it, and sessions signed in by any client get a name.
 */

/** Reduced user agents (Chrome since 110) say "K" where the model was; "wv" is a WebView. */
const NOT_A_MODEL = new Set(['k', 'wv', 'mobile', 'tablet']);

const BROWSERS: Record<string, string> = {
  'Mobile Safari': 'Safari',
  'Mobile Firefox': 'Firefox',
  'Chrome WebView': 'An app',
  'Android Browser': 'Browser',
  Chromium: 'Chromium',
};

/**
 * What a person calls the device a sign-in came from: "Chrome on Pixel 7", "Safari on iPhone",
 * "Firefox on Windows", "Edge on Mac". `model` is what the browser told the web app through
 * User-Agent Client Hints, where it could: the user agent alone no longer carries it on
 * Android. Null when the user agent says nothing a person would recognise (curl, a script).
 */
export function describeDevice(userAgent: string | null, model?: string | null): string | null {
  if (!userAgent) return null;
  const { browser, os, device } = new UAParser(userAgent).getResult();
  const what = deviceWord(os.name, device, model?.trim() || null);
  const app = browser.name ? (BROWSERS[browser.name] ?? browser.name) : null;
  if (app && what) return `${app} on ${what}`;
  return what ?? app;
}

function deviceWord(
  os: string | undefined,
  device: { vendor?: string; model?: string; type?: string },
  hinted: string | null,
): string | null {
  const model = hinted ?? (device.model && !NOT_A_MODEL.has(device.model.toLowerCase()) ? device.model : null);
  if (model === 'Macintosh') return 'Mac';
  if (model) return withVendor(device.vendor, model);
  switch (os) {
    case 'Android':
      return device.type === 'tablet' ? 'Android tablet' : 'Android phone';
    case 'iOS':
      return 'iPhone';
    case 'Mac OS':
    case 'macOS':
      return 'Mac';
    case 'Windows':
      return 'Windows';
    case 'Chromium OS':
    case 'Chrome OS':
      return 'Chromebook';
    case undefined:
      return null;
    default:
      return os;
  }
}

/** "Pixel 7" and "iPhone" say who made them; "SM-S918B" alone does not: "Samsung SM-S918B". */
function withVendor(vendor: string | undefined, model: string): string {
  if (!vendor || ['Apple', 'Google'].includes(vendor) || model.toLowerCase().includes(vendor.toLowerCase())) return model;
  return `${vendor} ${model}`;
}

/** The device name and platform a sign-in gives are shown to whoever approves the device. */
export function checkDeviceInfo(device: {
  device_name?: string | null | undefined;
  platform?: string | null | undefined;
  device_model?: string | null | undefined;
}): void {
  if (device.device_name) checkReadableName(device.device_name, 'device_name');
  if (device.platform) checkReadableName(device.platform, 'platform');
  if (device.device_model) checkReadableName(device.device_model, 'device_model');
}
