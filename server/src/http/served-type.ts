/**
 * What the server tells a browser uploaded content is. A node keeps its real type in the
 * database (the app needs it to pick a viewer); on the wire, the type is a capability: a
 * `<script src>` on the app's origin runs anything typed as JavaScript (`script-src 'self'`
 * allows it, and `nosniff` only blocks what is typed otherwise), and a page typed as HTML, XML
 * or SVG runs its own script. So content goes out as plain bytes to save, unless the client
 * asked to see it in place and it is of a kind that can only be looked at.
 */
export interface ServedAs {
  type: string;
  disposition: 'inline' | 'attachment';
}

export const SAVED_AS: ServedAs = { type: 'application/octet-stream', disposition: 'attachment' };

/**
 * Pictures, sound and film, and PDF: a browser shows them and runs nothing of theirs on the
 * origin (a PDF viewer runs apart, and the sandbox CSP beside it holds it there). No `+` in
 * the subtype: any `…+xml` type (`image/svg+xml` first) is rendered as an XML document, which
 * can carry script.
 */
const SHOWABLE = /^(?:image|video|audio)\/[a-z0-9][a-z0-9.!#$&^_-]*$/;

export function servedAs(mime: string | null, wantsInline: boolean): ServedAs {
  if (!wantsInline || mime === null) return SAVED_AS;
  const essence = mime.split(';', 1)[0]!.trim().toLowerCase();
  if (essence === 'application/pdf' || SHOWABLE.test(essence)) return { type: essence, disposition: 'inline' };
  return SAVED_AS;
}

/**
 * On every byte of user content, attachment or not: if a browser is ever talked into rendering
 * it as a document, the document has an opaque origin, runs no script and loads nothing from
 * elsewhere; no other site may frame it.
 */
export const USER_CONTENT_CSP =
  "sandbox; default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'";
