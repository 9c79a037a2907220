/** A file date this recent is the copy's, not the photo's: a photo taken just now has its own date inside. */
const FRESH_MS = 10 * 60_000;

/**
 * The file's date, for a photo or video: the server places it in its month with this until it
 * has read the file's own date (HEIC, PNG, most videos are read later), and keeps it when the
 * file has none. A phone's camera roll gives the time the picture was taken.
 */
export function captureHint(file: File, now = Date.now()): Record<string, string> {
  const media = /^(image|video)\//.test(file.type) || /\.(heic|heif|jpe?g|png|webp|mov|mp4|m4v|3gp)$/i.test(file.name);
  if (!media || !(file.lastModified > 0) || file.lastModified > now - FRESH_MS) return {};
  return { taken_at: String(file.lastModified), taken_offset: String(-new Date(file.lastModified).getTimezoneOffset()) };
}
