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

/** The bearer token of a request: the header always, the query only on the routes above. */
export function bearerToken(
  method: string,
  routePath: string,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): string | null {
  const header = headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1]! : null;
  }
  if (QUERY_TOKEN_ROUTES.has(`${method} ${routePath}`)) return query.get('access_token');
  return null;
}
