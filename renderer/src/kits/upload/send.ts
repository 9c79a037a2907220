import { API_BASE } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import { queryClient } from '../../api/queryClient.ts';
import { meQuery, nodeKeys, statusQuery } from '../../api/queries.ts';
import { fingerprintOf } from './batch.ts';
import { handlingOf, messageOf, outcomeOf, quotaMayHaveChanged, readAnswer, retriesNow, type FailedAnswer } from './decisions.ts';
import type { Entry, UploadItem } from './items.ts';
import { accountId } from './lookups.ts';
import { manifest } from './manifest.ts';
import { captureHint } from './capture-hint.ts';

/** What a held upload says (the panel shows it in place of a percentage). */
const HELD_FULL = 'Waiting: Hearth is full. It goes on by itself once space is freed.';
const HELD_READ_ONLY = 'Waiting: Hearth cannot save anything right now. It goes on once its disk is fixed.';

/**
 * Each PATCH carries at most this much: a request already under way is not stopped by the
 * browser going offline, so smaller requests mean a stalled link is noticed (and retried)
 * within one chunk, at a cost that is small on a LAN.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** A dropped network is retried on its own for about two minutes, then waits for the connection to be back. */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 30_000];

/** What sending a file needs of its queue. */
export interface SendHooks {
  update(entry: Entry, patch: Partial<UploadItem>): void;
  /** The manifest changed here: readers of it read it again. */
  unsentChanged(): void;
  /** One upload less under way: the next ones start. */
  pump(): void;
}

/** Sends one queued file with tus, resuming what the server already has of it. */
export async function send(entry: Entry, queue: SendHooks): Promise<void> {
  queue.update(entry, { status: 'sending' });
  const tus = await import('tus-js-client');
  if (entry.item.status !== 'sending') return;
  const metadata: Record<string, string> = { filename: entry.item.name, filetype: entry.file.type || 'application/octet-stream' };
  if (entry.item.parentId) metadata.parent_id = entry.item.parentId;
  if (entry.replaceNodeId) metadata.node_id = entry.replaceNodeId;
  if (entry.albumId) metadata.album_id = entry.albumId;
  Object.assign(metadata, captureHint(entry.file));
  const upload = new tus.Upload(entry.file, {
    endpoint: `${API_BASE}/uploads`,
    metadata,
    retryDelays: RETRY_DELAYS,
    chunkSize: CHUNK_BYTES,
    removeFingerprintOnSuccess: true,
    fingerprint: async (file) => fingerprintOf(accountId(), file, entry.item.parentId, entry.replaceNodeId),
    onBeforeRequest: async (req) => {
      const token = await session.accessToken();
      if (token) req.setHeader('Authorization', `Bearer ${token}`);
    },
    onShouldRetry: (error) => {
      const answer = answerOf(error);
      const handling = handlingOf(answer);
      // An expired access token: refresh, then the retry carries the new one.
      if (handling === 'refresh') void session.refresh(null).catch(() => undefined);
      // Nothing answered: the connection dropped. Said as such until bytes move again.
      if (answer.status === 0 && !entry.item.stalled) queue.update(entry, { stalled: true });
      return retriesNow(handling);
    },
    onProgress: (sent) => queue.update(entry, { sent, stalled: false }),
    onSuccess: () => {
      manifest.remove(entry.manifestId);
      queue.unsentChanged();
      queue.update(entry, { status: 'done', sent: entry.item.size, stalled: false });
      void queryClient.invalidateQueries({ queryKey: nodeKeys.all });
      void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      queue.pump();
    },
    onError: (error) => {
      if (entry.item.status !== 'sending') return;
      const answer = answerOf(error);
      if (answer.status === 0) {
        // Still no answer after the retries: not a failure, it waits for the connection.
        queue.update(entry, { status: 'offline', stalled: false, error: null });
        queue.pump();
        return;
      }
      if (quotaMayHaveChanged(answer)) void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
      const outcome = outcomeOf(answer);
      if (outcome.kind === 'hold') {
        void holdForSpace(entry, answer, queue);
        return;
      }
      // A refusal is told here, once; after a reload the banner says it once more, never as "choose it again".
      if (outcome.forGood) {
        manifest.refuse(entry.manifestId, outcome.message);
        queue.unsentChanged();
      }
      queue.update(entry, { status: 'failed', error: outcome.message, retryable: !outcome.forGood, stalled: false });
      queue.pump();
    },
  });
  entry.upload = upload;
  const previous = await upload.findPreviousUploads();
  if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
  if (entry.item.status === 'sending') upload.start();
}

/**
 * The server's disk refused the upload: it waits and goes on by itself once the disk has room
 * again (or takes writes again). Should the server already say it has room, waiting would
 * not help: the upload fails with its reason, and Resume tries again.
 */
async function holdForSpace(entry: Entry, answer: FailedAnswer, queue: SendHooks): Promise<void> {
  // Still `sending` while the status is asked: a status saying "ok" must not resume this
  // very upload (a file too big for the room left would then go round forever).
  const server = await queryClient.fetchQuery({ ...statusQuery, staleTime: 0 }).catch(() => null);
  if (entry.item.status !== 'sending') return;
  if (server?.storage === 'ok') queue.update(entry, { status: 'failed', error: messageOf(answer) });
  else queue.update(entry, { status: 'held', error: server?.storage === 'read_only' ? HELD_READ_ONLY : HELD_FULL });
  queue.pump();
}

/** A failed request as tus-js-client reports it (no response when nothing answered). */
function answerOf(error: Error): FailedAnswer {
  const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
  return readAnswer(response?.getStatus() ?? 0, response?.getBody());
}
