import type { HashCheckResponse } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/** A phone backup asks about a screenful of photos per round trip; a thousand keeps a request small (about 70 KB). */
export const MAX_HASHES_PER_CHECK = 1000;

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Which contents an account already holds, so a phone backup sends only what is new.
 * By SHA-256, the hash the server records for every stored version (node_versions.sha256).
 * Only the caller's own files count: another account's copy, even shared with the caller,
 * is not theirs to keep (it can be deleted or unshared at any moment).
 *
 * Remembered deletes: contents the account moved to the trash or deleted for good, so the
 * next backup does not bring back what was removed on purpose. A live file wins over one.
 */
export class ContentCheckService {
  constructor(private readonly deps: ServiceDeps) {}

  check(actor: Actor, input: { algorithm: string; hashes: readonly string[] }): HashCheckResponse {
    if (input.algorithm !== 'sha256') throw new AppError('hash_algorithm_unsupported', undefined, { field: 'algorithm' });
    if (input.hashes.length === 0 || input.hashes.length > MAX_HASHES_PER_CHECK) {
      throw new AppError('hash_count_out_of_range', undefined, { field: 'hashes' });
    }
    const bad = input.hashes.findIndex((hash) => !SHA256_HEX.test(hash));
    if (bad !== -1) throw new AppError('invalid_hash', undefined, { field: `hashes.${bad}` });
    const distinct = [...new Set(input.hashes)];
    const { contentIndex } = this.deps.store;
    const live = contentIndex.liveFiles(actor.userId, distinct);
    const missing = distinct.filter((hash) => !live.has(hash));
    const deleted = missing.length > 0 ? contentIndex.rememberedDeletes(actor.userId, missing) : new Set<string>();
    return {
      items: input.hashes.map((hash) => {
        const nodeId = live.get(hash);
        if (nodeId !== undefined) return { hash, state: 'present' as const, node_id: nodeId };
        return { hash, state: deleted.has(hash) ? ('deleted' as const) : ('absent' as const) };
      }),
    };
  }

  /** The next backup sends the deleted ones again. */
  forgetDeletes(actor: Actor): void {
    this.deps.store.contentIndex.forgetAllOf(actor.userId);
  }
}
