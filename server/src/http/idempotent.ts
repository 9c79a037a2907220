import type Koa from 'koa';
import type { Actor } from '../services/common/context.ts';
import type { Services } from '../services/index.ts';

/**
 * Runs a create at most once per `Idempotency-Key`: a repeated key answers what the first
 * request created. Returns the value to answer with and the headers that say it is a replay.
 */
export function createOnce<T>(
  ctx: { koa: Koa.Context; services: Services; actor: Actor; body: unknown },
  scope: string,
  create: () => T,
): { value: T; headers: Record<string, string> } {
  const key = ctx.koa.get('Idempotency-Key');
  if (key === '') return { value: create(), headers: {} };
  const result = ctx.services.idempotency.run(ctx.actor, scope, key, ctx.body, () => ({ status: 201, body: create() }));
  return { value: result.body as T, headers: result.replayed ? { 'Idempotent-Replayed': 'true' } : {} };
}
