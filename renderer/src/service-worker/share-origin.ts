/**
 * What a service worker is told about where a post to the Share target came from. It is not
 * told Sec-Fetch-Site (the browser adds it after the worker), but it sees the Origin header,
 * the referrer, and the id of the page that posted (FetchEvent.clientId), and may ask whether
 * that page is one of this origin's.
 */
export interface SharePost {
  /** The Origin header: "null" when the posting page hides it (no-referrer) or the browser itself posts. */
  origin: string | null;
  /** "" when hidden, or when the browser itself posts. */
  referrer: string;
  /** The posting page's client id; "" when the browser itself posts (the Share sheet) or the page opened a new tab without itself as opener. */
  clientId: string;
}

/**
 * Whether the browser says another site's page posted this: its Origin or referrer names
 * another origin, or the page that posted is not one of this origin's (a page that hid its
 * origin and referrer still has a client id). The phone's Share sheet is the browser posting
 * (no origin, no referrer, no client), and Hearth's own pages are this origin: both are let in.
 */
export async function postedByAnotherSite(
  post: SharePost,
  ownOrigin: string,
  isOwnPage: (clientId: string) => Promise<boolean>,
): Promise<boolean> {
  if (post.origin !== null && post.origin !== 'null' && post.origin !== ownOrigin) return true;
  if (post.referrer !== '' && originOf(post.referrer) !== ownOrigin) return true;
  if (post.clientId !== '' && !(await isOwnPage(post.clientId))) return true;
  return false;
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
