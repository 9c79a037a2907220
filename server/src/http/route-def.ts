import type Koa from 'koa';
import type { z } from 'zod';
import type { ErrorCode } from '../contract/error-codes.ts';
import type { Actor, ClientInfo } from '../services/common/context.ts';
import type { Services } from '../services/index.ts';

export type Method = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a route: anyone; a full-scope session; an admin's full-scope session; or
 * only a pending-scope token (the device-approval status poll).
 */
export type AuthMode = 'none' | 'user' | 'admin' | 'pending';

type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;

export interface HandlerContext<B, Q, P, A extends AuthMode> {
  body: B;
  query: Q;
  params: P;
  actor: A extends 'none' ? null : Actor;
  client: ClientInfo;
  services: Services;
  koa: Koa.Context;
}

const REPLY = Symbol('reply');

export interface Reply<S extends number = number, T = unknown> {
  [REPLY]: true;
  status: S;
  body: T;
  headers: Record<string, string>;
}

/** A response with a status other than the route's default; its body is checked against that status's schema. */
export function reply<S extends number, T = undefined>(status: S, body?: T, headers: Record<string, string> = {}): Reply<S, T> {
  return { [REPLY]: true, status, body: body as T, headers };
}

export function isReply(value: unknown): value is Reply {
  return typeof value === 'object' && value !== null && REPLY in value;
}

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  /** A non-JSON body (downloads, images); `schema` is then ignored. */
  contentType?: string;
}

type Responses = Record<number, ResponseDoc>;

/** A 200 answer with a JSON body described by `schema` (or none, when there is no schema). */
export function ok(description: string): { 200: { description: string } };
export function ok<S extends z.ZodType>(description: string, schema: S): { 200: { description: string; schema: S } };
export function ok(description: string, schema?: z.ZodType): { 200: ResponseDoc } {
  return { 200: { description, ...(schema && { schema }) } };
}

export const none = { 204: { description: 'Done; nothing to return' } };

/**
 * What a handler may return: the route's 200 body, typed by the schema that documents it, so
 * a service that answers another shape fails tsc; or a reply() with a status the route
 * documents, its body typed by that status's schema; or nothing (204, or the handler answered
 * itself).
 */
type BodyOf<D> = D extends { schema: infer S extends z.ZodType } ? z.output<S> : unknown;
type Answer<R> = R extends { 200: infer D } ? BodyOf<D> : never;
type Replies<R> = { [S in keyof R & number]: Reply<S, BodyOf<R[S]>> }[keyof R & number];
type HandlerResult<R> = Answer<R> | Replies<R> | void;

export interface RouteDef<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  A extends AuthMode = AuthMode,
  R extends Responses = Responses,
> {
  method: Method;
  /** Under /api/v1, in @koa/router syntax (`/devices/:id/approve`). */
  path: string;
  tag: string;
  summary: string;
  auth: A;
  body?: B;
  query?: Q;
  params?: P;
  /** Responses for the OpenAPI document, by status. */
  responses: R;
  /** Error codes this route answers beyond those its auth mode and body imply. */
  errors?: ErrorCode[];
  /** Accounts with a temporary password may call this non-GET route (spec: password change, logout). */
  allowWithTemporaryPassword?: boolean;
  /**
   * A streamed download: while it is sent it holds a slot of its client's address, of its
   * session and of the share link in its path (`:token`); one past any limit is 429
   * `too_many_downloads` (download-slots.ts). `sessionOf` names the session of a route that
   * carries no token of one (a zip's ticket).
   */
  download?: true | { sessionOf: (params: Record<string, string>, services: Services) => string | null };
  handler: (ctx: HandlerContext<Infer<B>, Infer<Q>, Infer<P>, A>) => HandlerResult<R> | Promise<HandlerResult<R>>;
}

/** Erased form kept in the route table. */
export type AnyRoute = RouteDef<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, AuthMode>;

/**
 * One route of a routes/<area>.ts module. The handler's context is typed from the route's
 * own schemas and auth mode, and its answer from the 200 response's schema.
 */
export function route<
  A extends AuthMode,
  R extends Responses,
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
>(def: RouteDef<B, Q, P, A, R>): AnyRoute {
  return def as unknown as AnyRoute;
}
