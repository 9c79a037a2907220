import type Koa from 'koa';
import type { Logger } from '../../log.ts';
import { routeOf } from './error-envelope.ts';

/**
 * Logs the route template, never the raw URL: paths and query strings can hold invite
 * codes, share tokens and `?access_token`.
 */
export function requestLog(log: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.debug('request', {
        method: ctx.method,
        route: routeOf(ctx),
        status: ctx.status,
        ms: Math.round(performance.now() - started),
      });
    }
  };
}
