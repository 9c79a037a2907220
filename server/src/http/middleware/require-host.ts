import type Koa from 'koa';
import { AppError } from '../../app-error.ts';

/**
 * HTTP/1.1 requires a Host header (RFC 9112 §3.2). Node's own check answers a bare 400 with
 * no body, so the server turns it off and refuses here, with the envelope.
 */
export function requireHost(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.req.httpVersion === '1.1' && !ctx.get('Host')) {
      throw new AppError('malformed_request', 'HTTP/1.1 requests need a Host header.', { headers: { Connection: 'close' } });
    }
    await next();
  };
}
