import type Koa from 'koa';
import { AppError, ERROR_CATALOGUE } from '../../app-error.ts';
import type { Logger } from '../../log.ts';

/** Whether an error is the disk refusing a write (and which way): marks that disk as it answers. */
export type StorageFaultOf = (error: unknown) => 'full' | 'read_only' | null;

/** Another wire format for some requests' errors (WebDAV's XML under /dav/), or null for the envelope. */
export type ErrorFormat = (ctx: Koa.Context, error: AppError) => { type: string; body: string } | null;

/**
 * Outermost middleware: whatever goes wrong below, the client gets the error envelope with
 * a catalogue code, and the server logs only what it needs (never bodies or headers).
 */
export function errorEnvelope(log: Logger, storageFaultOf: StorageFaultOf = () => null, format: ErrorFormat = () => null): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError('not_found', 'No such endpoint.');
    } catch (caught) {
      let error = toAppError(caught, storageFaultOf);
      if (error.code === 'method_not_allowed' && !error.headers.Allow) {
        // The router throws 405 without the Allow header; rebuild it from the routes that matched the path.
        const allow = allowedMethods(ctx);
        if (allow) error = new AppError('method_not_allowed', undefined, { headers: { Allow: allow } });
      }
      if (error.code === 'internal') {
        log.error('request failed', {
          method: ctx.method,
          route: routeOf(ctx),
          error: caught instanceof Error ? (caught.stack ?? caught.message) : String(caught),
        });
      }
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.set('Cache-Control', 'no-store');
      const other = format(ctx, error);
      if (other) {
        ctx.type = other.type;
        ctx.body = other.body;
      } else ctx.body = error.toBody();
    }
  };
}

/**
 * Maps errors raised by Koa, the router and the body parser onto catalogue codes. A write the
 * disk refused, wherever below it was (SQLite's "database or disk is full", ENOSPC, EDQUOT,
 * EROFS), is the disk's state and not a bug: one rule here answers it on every route.
 */
export function toAppError(caught: unknown, storageFaultOf: StorageFaultOf = () => null): AppError {
  if (caught instanceof AppError) return caught;
  const fault = storageFaultOf(caught);
  if (fault === 'full') return new AppError('storage_full');
  if (fault === 'read_only') return new AppError('storage_read_only');
  const err = caught as { status?: number; statusCode?: number; type?: string; expose?: boolean; headers?: Record<string, string> };
  const status = err?.status ?? err?.statusCode;
  // co-body (under @koa/bodyparser) rethrows JSON.parse's SyntaxError with status 400 and no `type`.
  if (err?.type === 'entity.parse.failed' || (caught instanceof SyntaxError && status === 400)) {
    return new AppError('invalid_json');
  }
  if (err?.type === 'entity.too.large' || status === 413) return new AppError('payload_too_large');
  if (err?.type === 'encoding.unsupported' || status === 415) return new AppError('unsupported_media_type');
  if (status === 405) {
    return new AppError('method_not_allowed', undefined, err.headers?.Allow ? { headers: { Allow: err.headers.Allow } } : {});
  }
  if (status === 501) return new AppError('method_not_allowed');
  if (status === 404) return new AppError('not_found');
  if (status === 400 && err.expose) return new AppError('invalid_input');
  return new AppError('internal', ERROR_CATALOGUE.internal.message);
}

export function routeOf(ctx: Koa.Context): string {
  const matched = (ctx as { _matchedRoute?: unknown })._matchedRoute;
  return typeof matched === 'string' ? matched : '(unmatched)';
}

function allowedMethods(ctx: Koa.Context): string {
  const matched = (ctx as { matched?: { methods?: string[] }[] }).matched ?? [];
  return [...new Set(matched.flatMap((layer) => layer.methods ?? []))].join(', ');
}
