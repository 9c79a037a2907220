import type { IncomingHttpHeaders } from 'node:http';

/**
 * The only routes where a token may ride in the URL (`?access_token=`), because the spec
 * names them: a browser cannot set headers on a WebSocket, an <img> or a download link.
 * Everywhere else a token in the URL is ignored, so it never lands in history or logs.
 */
export const QUERY_TOKEN_ROUTES: ReadonlySet<string> = new Set([
  'GET /ws',
  'GET /nodes/:id/thumbnail',
  'GET /nodes/:id/preview',
  'GET /nodes/:id/download',
]);

/**
 * Of those, the routes of one node. A URL of theirs outlives the page (the downloads list, the
 * history), so the web app puts a token made for that node in it (`POST /nodes/{id}/access-token`:
 * read-only, a few minutes). The contract lets a client put the session's own token there too:
 * services/files/node-access.ts decides which it is and whether the owner allows the latter.
 * The WebSocket takes the session's token: its URL is never shown, saved or listed.
 */
export const NODE_URL_TOKEN_ROUTES: ReadonlySet<string> = new Set([
  'GET /nodes/:id/thumbnail',
  'GET /nodes/:id/preview',
  'GET /nodes/:id/download',
]);

/** A session's access token (header, or the WebSocket's URL), or a token in a node route's URL (a node token or a session's). */
export type Credential = { kind: 'session'; token: string } | { kind: 'node'; token: string };

/** What a request presents: the header always wins; the query counts only on the routes above. */
export function credentialOf(method: string, routePath: string, headers: IncomingHttpHeaders, query: URLSearchParams): Credential | null {
  const header = headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? { kind: 'session', token: match[1]! } : null;
  }
  const route = `${method} ${routePath}`;
  if (!QUERY_TOKEN_ROUTES.has(route)) return null;
  const token = query.get('access_token');
  if (token === null) return null;
  return { kind: NODE_URL_TOKEN_ROUTES.has(route) ? 'node' : 'session', token };
}

/** A session's bearer token, from the header or (on the WebSocket) the query. */
export function bearerToken(method: string, routePath: string, headers: IncomingHttpHeaders, query: URLSearchParams): string | null {
  const credential = credentialOf(method, routePath, headers, query);
  return credential?.kind === 'session' ? credential.token : null;
}
