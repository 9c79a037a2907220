import type Koa from 'koa';
import type { FamilyFirst } from '../../services/common/family-first.ts';

/**
 * Counts a request as being answered until its handler is done. A download's body streams on
 * after that, so a long film does not hold a backup back; an upload's body is read inside the
 * handler, so an upload does (a backup slows for the family's new photos).
 */
export function familyFirst(gauge: FamilyFirst): Koa.Middleware {
  return async (_ctx, next) => {
    const done = gauge.answering();
    try {
      await next();
    } finally {
      done();
    }
  };
}
