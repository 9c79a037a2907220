import crypto from 'node:crypto';
import { AppError } from '../../app-error.ts';
import type { Actor, ServiceDeps } from './context.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;

export interface StoredResponse {
  status: number;
  body: unknown;
}

/**
 * `Idempotency-Key` for create endpoints: a retried request (a phone that lost the answer)
 * gets the first answer again instead of making a second folder or link. The record is
 * written in the same transaction as what it records, so a crash cannot split them.
 */
export class IdempotencyService {
  constructor(private readonly deps: ServiceDeps) {}

  run(actor: Actor, scope: string, key: string, request: unknown, work: () => StoredResponse): StoredResponse & { replayed: boolean } {
    if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
      throw new AppError('invalid_input', 'Idempotency-Key is 1 to 255 visible ASCII characters.', { field: 'Idempotency-Key' });
    }
    const hash = crypto.createHash('sha256').update(JSON.stringify(request)).digest('base64url');
    const { store } = this.deps;
    return store.transaction(() => {
      const earlier = store.idempotency.get(actor.userId, scope, key);
      if (earlier) {
        if (earlier.request_hash !== hash) throw new AppError('idempotency_conflict', undefined, { field: 'Idempotency-Key' });
        return { status: earlier.status, body: JSON.parse(earlier.body) as unknown, replayed: true };
      }
      const response = work();
      store.idempotency.put(actor.userId, scope, key, hash, response.status, JSON.stringify(response.body), this.deps.now());
      return { ...response, replayed: false };
    });
  }

  prune(): void {
    this.deps.store.idempotency.pruneBefore(this.deps.now() - IDEMPOTENCY_TTL_MS);
  }
}
