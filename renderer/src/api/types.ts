import type { paths } from './schema';

/** The JSON a route answers with `status`, as the server's OpenAPI document describes it. */
export type Answer<P extends keyof paths, M extends keyof paths[P], S extends number = 200> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends Record<S, { content: { 'application/json': infer J } }>
    ? J
    : never
  : never;

export type Node = Answer<'/nodes/{id}', 'get'>;
export type NodePage = Answer<'/nodes', 'get'>;
export type TokenResponse = Answer<'/auth/login', 'post'>;
export type PendingResponse = Answer<'/auth/login', 'post', 202>;
export type User = TokenResponse['user'];
export type Me = Answer<'/me', 'get'>;
export type Status = Answer<'/status', 'get'>;
export type NodeColor = NonNullable<Node['color']>;
