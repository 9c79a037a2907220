/** Where the WebDAV tree is served, on the same port as the API and the web app. */
export const DAV_PREFIX = '/dav';

/**
 * The names along a request's path under /dav/, decoded, or null for a path that tries to leave
 * the account's tree or name something no file can be called: `.` and `..` (also encoded), an
 * encoded slash or backslash (one name must not become two further down), NUL and other control
 * characters, and bytes that are not UTF-8.
 */
export function davSegments(rawPath: string): string[] | null {
  if (rawPath !== DAV_PREFIX && !rawPath.startsWith(`${DAV_PREFIX}/`)) return null;
  const rest = rawPath.slice(DAV_PREFIX.length);
  const names: string[] = [];
  for (const raw of rest.split('/')) {
    if (raw === '') continue;
    if (/%(2f|5c|00)/i.test(raw)) return null;
    let name: string;
    try {
      name = decodeURIComponent(raw);
    } catch {
      return null;
    }
    // eslint-disable-next-line no-control-regex
    if (name === '.' || name === '..' || /[\u0000-\u001f\u007f/\\]/.test(name)) return null;
    names.push(name.normalize('NFC'));
  }
  return names;
}

/** The href of a resource under /dav/, each name percent-encoded; a folder's ends in `/`. */
export function davHref(names: readonly string[], folder: boolean): string {
  const path = names.map((name) => encodeURIComponent(name)).join('/');
  if (names.length === 0) return `${DAV_PREFIX}/`;
  return `${DAV_PREFIX}/${path}${folder ? '/' : ''}`;
}
