import type Koa from 'koa';
import type Router from '@koa/router';
import { bodyParser } from '@koa/bodyparser';
import type { z } from 'zod';
import { AppError } from '../app-error.ts';
import type { Actor, ClientInfo } from '../services/common/context.ts';
import type { Services } from '../services/index.ts';
import { EVENT_COUNT_HEADER } from '../contract/events.ts';
import { credentialOf } from './bearer.ts';
import { holdDownloadSlot, type DownloadSlots } from './download-slots.ts';
import { isReply, type AnyRoute } from './route-def.ts';

const READ_ONLY = new Set(['GET', 'HEAD']);

/**
 * Turns the route table into router entries. Every route runs the same steps in the same
 * order: authenticate, check scope and role, take a download's slot (routes marked `download`),
 * parse and validate input, call the handler.
 * No handler repeats any of them.
 */
export function mountRoutes(
  router: Router,
  routes: readonly AnyRoute[],
  services: Services,
  jsonLimit: number,
  downloads: DownloadSlots,
): void {
  const parseJson = decodingErrors(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit,
      jsonStrict: true,
    }) as unknown as Koa.Middleware,
  );

  for (const def of routes) {
    const steps: Koa.Middleware[] = [authenticate(def, services)];
    if (def.download) steps.push(downloadSlot(def, services, downloads));
    if (def.body) steps.push(requireJson, parseJson);
    steps.push(async (ctx) => {
      const result = await def.handler({
        body: def.body ? validate(def.body, ctx.request.body ?? {}) : undefined,
        query: def.query ? validate(def.query, ctx.query) : undefined,
        params: def.params ? validate(def.params, ctx.params) : undefined,
        actor: ctx.state.actor ?? null,
        client: clientOf(ctx),
        services,
        koa: ctx,
      } as never);
      if (ctx.state.responded) {
        // The handler answered itself (a file stream, the tus protocol).
      } else if (isReply(result)) {
        ctx.status = result.status;
        ctx.set(result.headers);
        if (result.body !== undefined) ctx.body = result.body;
      } else if (result === undefined) {
        ctx.status = 204;
      } else {
        ctx.status = 200;
        ctx.body = result;
      }
      if (!ctx.response.get('Cache-Control')) ctx.set('Cache-Control', 'no-store');
    });
    router.register(def.path, [def.method], steps);
  }
}

function authenticate(def: AnyRoute, services: Services): Koa.Middleware {
  return async (ctx, next) => {
    if (def.auth === 'none') return next();
    const credential = credentialOf(def.method, def.path, ctx.headers, new URLSearchParams(ctx.querystring));
    if (credential === null) throw new AppError('unauthorized');
    if (credential.kind === 'node') {
      // A token in a node route's URL: services/files/node-access.ts decides what it opens.
      ctx.state.actor = services.nodeAccess.authenticate(credential.token, String(ctx.params.id));
      return next();
    }
    const actor = services.sessions.authenticate(credential.token);
    if (actor.scope === 'pending') {
      // A device waiting for approval may only ask whether it has been approved.
      if (def.auth !== 'pending') {
        throw actor.sessionStatus === 'denied' ? new AppError('invalid_token') : new AppError('pending_approval');
      }
    } else {
      if (def.auth === 'pending') throw new AppError('forbidden');
      if (def.auth === 'admin' && actor.role !== 'admin') throw new AppError('forbidden');
      if (actor.mustChangePassword && !READ_ONLY.has(ctx.method) && !def.allowWithTemporaryPassword) {
        throw new AppError('must_change_password');
      }
    }
    ctx.state.actor = actor;
    // Counted before the handler reads anything: an event sent meanwhile makes the answer look older, never newer.
    if (actor.scope === 'full' && READ_ONLY.has(ctx.method)) ctx.set(EVENT_COUNT_HEADER, services.eventCounts.of(actor.userId));
    return next();
  };
}

/**
 * Once the caller is known and before anything is opened, a download takes its slot (or is
 * refused); it gives it back when its response is done or its connection closes.
 */
function downloadSlot(def: AnyRoute, services: Services, slots: DownloadSlots): Koa.Middleware {
  const sessionOf = typeof def.download === 'object' ? def.download.sessionOf : null;
  return async (ctx, next) => {
    const params = ctx.params as Record<string, string>;
    holdDownloadSlot(ctx, slots, {
      ip: ctx.request.ip || null,
      sessionId: (ctx.state.actor as Actor | undefined)?.sessionId ?? sessionOf?.(params, services),
      linkToken: params.token,
    });
    return next();
  };
}

/**
 * A body whose Content-Encoding (gzip, deflate, br) does not decompress fails inside zlib,
 * whose errors carry a numeric errno and no HTTP status: that is the client's mistake, not
 * the server's. (The body limit applies to the inflated bytes, so a bomb stops at it: 413.)
 */
function decodingErrors(parse: Koa.Middleware): Koa.Middleware {
  return async (ctx, next) => {
    let parsed = false;
    try {
      await parse(ctx, async () => {
        parsed = true;
      });
    } catch (error) {
      const failure = error as { errno?: unknown; status?: unknown };
      if (typeof failure.errno === 'number' && failure.status === undefined) throw new AppError('invalid_encoding');
      throw error;
    }
    if (parsed) await next();
  };
}

/** A route that takes JSON refuses other body types instead of silently seeing `{}`. */
const requireJson: Koa.Middleware = async (ctx, next) => {
  const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
  if (hasBody && !ctx.is('application/json', '+json')) throw new AppError('unsupported_media_type');
  return next();
};

function validate<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.') || undefined;
  const missing = issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined;
  const options = field === undefined ? {} : { field };
  if (missing) return raise('missing_field', `The field "${field}" is required.`, options);
  return raise('invalid_input', field ? `The field "${field}" is not valid: ${issue.message}.` : issue.message, options);
}

function raise(code: 'missing_field' | 'invalid_input', message: string, options: { field?: string }): never {
  throw new AppError(code, message, options);
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function clientOf(ctx: Koa.Context): ClientInfo {
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => ctx.get(name) !== '');
  return { ip: ctx.request.ip || null, userAgent: ctx.get('User-Agent') || null, forwarded };
}
