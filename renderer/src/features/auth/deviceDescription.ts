/**
 * The device's model as the browser tells it through User-Agent Client Hints (Chromium, on a
 * secure page): Android's user agent no longer names it. Asked once when the app loads, so
 * the answer is there by the time someone has typed a password.
 */
let hintedModel: string | null = null;
const agentData = (navigator as { userAgentData?: { getHighEntropyValues?(hints: string[]): Promise<{ model?: string }> } }).userAgentData;
void agentData
  ?.getHighEntropyValues?.(['model'])
  .then((values) => (hintedModel = values.model?.trim() || null))
  .catch(() => undefined);

/**
 * What this device tells the server about itself. The server names it from its user agent
 * ("Chrome on Pixel 7"), with the model added here where the browser gives it.
 */
export function deviceDescription(): { platform: string; device_model?: string } {
  const ua = navigator.userAgent;
  const platform = /Android/i.test(ua)
    ? 'Android'
    : /iPhone|iPad|iPod/i.test(ua)
      ? 'iOS'
      : /Mac OS X/i.test(ua)
        ? 'macOS'
        : /Windows/i.test(ua)
          ? 'Windows'
          : /Linux/i.test(ua)
            ? 'Linux'
            : 'Web';
  return { platform, ...(hintedModel ? { device_model: hintedModel } : {}) };
}
