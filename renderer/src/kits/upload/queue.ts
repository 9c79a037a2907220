import { hashKey } from '@tanstack/react-query';
import type { Upload } from 'tus-js-client';
import { api, API_BASE, data } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import type { Node, Status } from '../../api/types.ts';
import { queryClient } from '../../api/queryClient.ts';
import { meQuery, nodeKeys, statusQuery } from '../../api/queries.ts';
import { events } from '../../api/events.ts';
import {
  afterClash,
  afterLongNames,
  fingerprintOf,
  sortAgainstFolder,
  tooLong,
  type Chosen,
  type ClashChoice,
  type LongNamesChoice,
} from './batch.ts';
import { handlingOf, messageOf, outcomeOf, quotaMayHaveChanged, readAnswer, retriesNow, type FailedAnswer } from './decisions.ts';
import { kindOf, type FileKind } from './line.ts';
import { manifest, matchIn, type Unsent } from './manifest.ts';
import { ScreenAwake } from './wake-lock.ts';

/**
 * `held`: the server's disk is full (or read-only); it continues by itself once there is room.
 * `offline`: the connection dropped for longer than the retries; it continues by itself once
 * the device is online again or the server answers again.
 */
export type UploadStatus = 'queued' | 'sending' | 'paused' | 'held' | 'offline' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  sent: number;
  status: UploadStatus;
  parentId: string | null;
  error: string | null;
  /** False once the server refused the file for good (its name, its size, no space): trying again cannot help. */
  retryable: boolean;
  kind: FileKind;
  /** Sending, but its last request got no answer: tried again shortly, nothing moves meanwhile. */
  stalled: boolean;
}

export interface AddOptions {
  /** Names the part of the app that tells the person itself how to finish after a reload (see Unsent.batch). */
  batch?: string;
  /** The album each file joins once uploaded (the server adds it in the same step as the file). */
  albumId?: string;
}

/** Files with the same name in the target folder, waiting for one answer for the whole batch. */
export interface ClashQuestion {
  names: string[];
  answer(choice: ClashChoice): void;
}

/** The status query's key as the cache knows it: its answers are how held uploads learn there is room. */
const STATUS_HASH = hashKey(statusQuery.queryKey);

/** What a held upload says (the panel shows it in place of a percentage). */
const HELD_FULL = 'Waiting: Hearth is full. It goes on by itself once space is freed.';
const HELD_READ_ONLY = 'Waiting: Hearth cannot save anything right now. It goes on once its disk is fixed.';

/** Files whose names are over the server's limit, with the shorter names they would get: one answer for the batch. */
export interface LongNamesQuestion {
  names: { name: string; shorter: string }[];
  answer(choice: LongNamesChoice): void;
}

/** Files sent at once: enough to fill a home link, few enough that each shows progress. */
const PARALLEL = 3;
/**
 * Each PATCH carries at most this much: a request already under way is not stopped by the
 * browser going offline, so smaller requests mean a stalled link is noticed (and retried)
 * within one chunk, at a cost that is small on a LAN.
 */
const CHUNK_BYTES = 8 * 1024 * 1024;
/** A dropped network is retried on its own for about two minutes, then waits for the connection to be back. */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 30_000];

interface Entry {
  item: UploadItem;
  file: File;
  upload: Upload | null;
  manifestId: string;
  replaceNodeId: string | null;
  /** The album each photo of the batch joins once it is sent (the server adds it as the upload completes). */
  albumId: string | null;
}

interface Snapshot {
  items: UploadItem[];
  alreadyHere: number;
  clash: ClashQuestion | null;
  longNames: LongNamesQuestion | null;
  /** The device says it has no network. */
  offline: boolean;
}

/**
 * The uploads of this tab: batches checked against the folder (same name and size: already
 * here; same name only: one question per batch), then sent with tus-js-client a few at a time,
 * each resumable. Client state (bytes leaving this device), so it lives here rather than in the
 * query cache; what lands on the server is read back through the cache.
 */
class UploadQueue {
  private entries: Entry[] = [];
  private snapshot: Snapshot = { items: [], alreadyHere: 0, clash: null, longNames: null, offline: false };
  private alreadyHere = 0;
  private clash: ClashQuestion | null = null;
  private longNames: LongNamesQuestion | null = null;
  private readonly listeners = new Set<() => void>();
  private counter = 0;
  /** Bumped whenever the manifest changes here: readers of it read it again only then. */
  private unsentVersion = 0;
  private leftBehindCache: { account: string; version: number; entries: Unsent[] } | null = null;
  private readonly awake = new ScreenAwake(
    () => (typeof navigator !== 'undefined' && 'wakeLock' in navigator ? navigator.wakeLock : undefined),
    () => document.visibilityState === 'visible',
  );

  constructor() {
    if (typeof window === 'undefined') return;
    this.snapshot = { ...this.snapshot, offline: !navigator.onLine };
    window.addEventListener('online', () => {
      this.changed();
      this.resumeFailed();
      this.resumeConnection();
    });
    window.addEventListener('offline', () => this.changed());
    // The server answers its live channel again (the network came back without the device ever
    // saying it was gone, or the server restarted): what waited for it goes on now, not at the
    // next of its retries, up to 30 s later.
    let socket = events.currentStatus();
    events.subscribeStatus(() => {
      const now = events.currentStatus();
      if (now === 'open' && socket !== 'open') this.resumeConnection();
      socket = now;
    });
    // The server's disk has room again (its event or a status check updated the status): what
    // waited for it goes on, from where the server says it got.
    queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.query.queryHash !== STATUS_HASH) return;
      if ((event.query.state.data as Status | undefined)?.storage === 'ok') this.resumeHeld();
    });
    // The screen lock is released when the page is hidden; take it again on return.
    document.addEventListener('visibilitychange', () => void this.awake.recheck());
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  state = (): Snapshot => this.snapshot;

  /**
   * What an earlier page of this browser was sending and did not finish, that this page is not
   * sending now (chosen again, an entry is continued and stops being left behind).
   */
  leftBehind = (account: string): Unsent[] => {
    const cached = this.leftBehindCache;
    if (cached?.account === account && cached.version === this.unsentVersion) return cached.entries;
    const live = new Set(this.entries.map((entry) => entry.manifestId));
    const entries = manifest.forAccount(account).filter((u) => !live.has(u.id));
    // Read again only when this tab changed the manifest, not at every byte sent.
    this.leftBehindCache = { account, version: this.unsentVersion, entries };
    return entries;
  };

  /** A batch chosen or dropped by the person: checked against the folder, then queued. */
  async add(files: File[], parentId: string | null, options: AddOptions = {}): Promise<void> {
    const account = accountId();
    // The uploader's code loads while the folder is checked, not after.
    void import('tus-js-client');
    const existing = await namesIn(parentId).catch(() => new Map<string, Node>());
    // Chosen again on purpose (after making room, say): an earlier refusal is old news.
    manifest.forgetRefused(account, files);
    // Read once for the whole batch: a camera roll is thousands of files.
    const remembered = manifest.forAccount(account);
    const chosen: Chosen[] = [];
    for (const file of files) {
      const unsent = matchIn(remembered, account, file);
      if (unsent) {
        // Chosen again after a reload: continue it where it was going.
        this.enqueue({ file, name: unsent.as ?? file.name }, unsent.parentId, unsent.replaceNodeId, {
          ...options,
          manifestId: unsent.id,
          ...(unsent.albumId ? { albumId: unsent.albumId } : {}),
        });
        continue;
      }
      chosen.push({ file, name: file.name.normalize('NFC') });
    }
    const named = await this.fitNames(chosen);
    const { alreadyHere, fresh, clashing } = sortAgainstFolder(named, existing);
    this.alreadyHere += alreadyHere;
    this.remember(fresh.map((one) => this.enqueue(one, parentId, null, options)));
    if (clashing.length > 0) {
      const choice = await new Promise<ClashChoice>((resolve) => {
        this.clash = { names: clashing.map((c) => c.chosen.name), answer: resolve };
        this.changed();
      });
      this.clash = null;
      this.remember(
        afterClash(clashing, choice).map(({ chosen: one, replaceNodeId }) => this.enqueue(one, parentId, replaceNodeId, options)),
      );
    }
    this.changed();
    this.pump();
  }

  /** Notes in the manifest what was just queued, in one write. */
  private remember(entries: Unsent[]): void {
    manifest.addAll(entries);
    this.unsentVersion += 1;
  }

  /**
   * A new run of a batch decided what it still has to send: its entries left behind by an
   * earlier page that are not among those files are no longer "still to send".
   */
  keepOnlyOfBatch(batch: string, files: readonly File[]): void {
    // What this page is sending itself is not left behind.
    manifest.keepOnly(accountId(), batch, files, new Set(this.entries.map((entry) => entry.manifestId)));
    this.unsentVersion += 1;
    this.changed();
  }

  /** Takes entries out of the manifest (arrived, cancelled, let go of). */
  forgetUnsent(...ids: string[]): void {
    manifest.remove(...ids);
    this.unsentVersion += 1;
    this.changed();
  }

  /**
   * Names over the server's limit would be refused: the person is asked once for the batch
   * whether to send them under a shorter name (the extension kept), or not at all.
   */
  private async fitNames(chosen: Chosen[]): Promise<Chosen[]> {
    const shorter = tooLong(chosen);
    if (shorter.size === 0) return chosen;
    const choice = await new Promise<LongNamesChoice>((resolve) => {
      this.longNames = { names: [...shorter].map(([one, short]) => ({ name: one.name, shorter: short })), answer: resolve };
      this.changed();
    });
    this.longNames = null;
    this.changed();
    return afterLongNames(chosen, shorter, choice);
  }

  pause(key: string): void {
    const entry = this.find(key);
    if (!entry || !['sending', 'queued', 'offline'].includes(entry.item.status)) return;
    void entry.upload?.abort(false);
    this.update(entry, { status: 'paused', stalled: false });
    this.pump();
  }

  resume(key: string): void {
    const entry = this.find(key);
    if (!entry || !['paused', 'failed', 'offline'].includes(entry.item.status) || !entry.item.retryable) return;
    this.update(entry, { status: 'queued', error: null });
    this.pump();
  }

  cancel(key: string): void {
    const entry = this.find(key);
    if (!entry || entry.item.status === 'done') return;
    // Termination tells the server to drop what it received.
    void entry.upload?.abort(true).catch(() => undefined);
    manifest.remove(entry.manifestId);
    this.unsentVersion += 1;
    this.update(entry, { status: 'cancelled' });
    this.pump();
  }

  /**
   * Closing the panel once nothing is under way: what arrived goes, and so does what did not
   * (a refusal the person has now read, a failure they chose not to try again: closing is
   * letting it go, so no later page asks to choose it again).
   */
  clearFinished(): void {
    const closing = this.entries.filter((e) => ['done', 'cancelled', 'failed'].includes(e.item.status));
    for (const entry of closing) {
      if (entry.item.status !== 'failed') continue;
      manifest.remove(entry.manifestId);
      // What the server kept of it is of no use any more.
      if (entry.item.retryable) void entry.upload?.abort(true).catch(() => undefined);
    }
    this.entries = this.entries.filter((e) => !closing.includes(e));
    this.unsentVersion += 1;
    this.alreadyHere = 0;
    this.changed();
  }

  /** Signed out: stop everything of that account in this tab. */
  reset(): void {
    for (const entry of this.entries) void entry.upload?.abort(false);
    this.entries = [];
    this.alreadyHere = 0;
    this.unsentVersion += 1;
    void this.awake.want(false);
    this.changed();
  }

  /** Queues one file; its manifest entry is returned for the caller to write with the rest of its batch. */
  private enqueue(
    { file, name }: Chosen,
    parentId: string | null,
    replaceNodeId: string | null,
    { manifestId, batch, albumId }: AddOptions & { manifestId?: string },
  ): Unsent {
    this.counter += 1;
    const id = manifestId ?? `${Date.now().toString(36)}-${this.counter}`;
    const unsent: Unsent = {
      id,
      account: accountId(),
      name: file.name,
      ...(name !== file.name ? { as: name } : {}),
      size: file.size,
      lastModified: file.lastModified,
      parentId,
      replaceNodeId,
      ...(batch ? { batch } : {}),
      ...(albumId ? { albumId } : {}),
    };
    this.entries.push({
      file,
      upload: null,
      manifestId: id,
      replaceNodeId,
      albumId: albumId ?? null,
      item: {
        key: `u${this.counter}`,
        name,
        size: file.size,
        sent: 0,
        status: 'queued',
        parentId,
        error: null,
        retryable: true,
        kind: kindOf(file.type),
        stalled: false,
      },
    });
    return unsent;
  }

  private resumeHeld(): void {
    const held = this.entries.filter((e) => e.item.status === 'held');
    if (held.length === 0) return;
    for (const entry of held) this.update(entry, { status: 'queued', error: null });
    this.pump();
  }

  private resumeFailed(): void {
    for (const entry of this.entries)
      if (entry.item.status === 'failed' && entry.item.retryable) this.update(entry, { status: 'queued', error: null });
    this.pump();
  }

  /**
   * The connection is back: what waited for it, and what tus would try again only at its next
   * retry, starts again now, from where the server has it.
   */
  private resumeConnection(): void {
    for (const entry of this.entries) {
      const waiting = entry.item.status === 'offline' || (entry.item.status === 'sending' && entry.item.stalled);
      if (!waiting) continue;
      void entry.upload?.abort(false);
      this.update(entry, { status: 'queued', stalled: false, error: null });
    }
    this.pump();
  }

  private find(key: string): Entry | undefined {
    return this.entries.find((e) => e.item.key === key);
  }

  private pump(): void {
    const sending = this.entries.filter((e) => e.item.status === 'sending').length;
    const next = this.entries.filter((e) => e.item.status === 'queued').slice(0, Math.max(0, PARALLEL - sending));
    for (const entry of next) void this.start(entry);
    // The screen stays on while anything is to be sent, waiting for the connection included:
    // a sleeping phone would not notice it come back.
    void this.awake.want(this.entries.some((e) => ['sending', 'queued', 'offline'].includes(e.item.status)));
  }

  private async start(entry: Entry): Promise<void> {
    this.update(entry, { status: 'sending' });
    const tus = await import('tus-js-client');
    if (entry.item.status !== 'sending') return;
    const metadata: Record<string, string> = { filename: entry.item.name, filetype: entry.file.type || 'application/octet-stream' };
    if (entry.item.parentId) metadata.parent_id = entry.item.parentId;
    if (entry.replaceNodeId) metadata.node_id = entry.replaceNodeId;
    if (entry.albumId) metadata.album_id = entry.albumId;
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
        if (answer.status === 0 && !entry.item.stalled) this.update(entry, { stalled: true });
        return retriesNow(handling);
      },
      onProgress: (sent) => this.update(entry, { sent, stalled: false }),
      onSuccess: () => {
        manifest.remove(entry.manifestId);
        this.unsentVersion += 1;
        this.update(entry, { status: 'done', sent: entry.item.size, stalled: false });
        void queryClient.invalidateQueries({ queryKey: nodeKeys.all });
        void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
        this.pump();
      },
      onError: (error) => {
        if (entry.item.status !== 'sending') return;
        const answer = answerOf(error);
        if (answer.status === 0) {
          // Still no answer after the retries: not a failure, it waits for the connection.
          this.update(entry, { status: 'offline', stalled: false, error: null });
          this.pump();
          return;
        }
        if (quotaMayHaveChanged(answer)) void queryClient.invalidateQueries({ queryKey: meQuery.queryKey });
        const outcome = outcomeOf(answer);
        if (outcome.kind === 'hold') {
          void this.holdForSpace(entry, answer);
          return;
        }
        // A refusal is told here, once; after a reload the banner says it once more, never as "choose it again".
        if (outcome.forGood) {
          manifest.refuse(entry.manifestId, outcome.message);
          this.unsentVersion += 1;
        }
        this.update(entry, { status: 'failed', error: outcome.message, retryable: !outcome.forGood, stalled: false });
        this.pump();
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
  private async holdForSpace(entry: Entry, answer: FailedAnswer): Promise<void> {
    // Still `sending` while the status is asked: a status saying "ok" must not resume this
    // very upload (a file too big for the room left would then go round forever).
    const server = await queryClient.fetchQuery({ ...statusQuery, staleTime: 0 }).catch(() => null);
    if (entry.item.status !== 'sending') return;
    if (server?.storage === 'ok') this.update(entry, { status: 'failed', error: messageOf(answer) });
    else this.update(entry, { status: 'held', error: server?.storage === 'read_only' ? HELD_READ_ONLY : HELD_FULL });
    this.pump();
  }

  private update(entry: Entry, patch: Partial<UploadItem>): void {
    entry.item = { ...entry.item, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snapshot = {
      items: this.entries.map((e) => e.item),
      alreadyHere: this.alreadyHere,
      clash: this.clash,
      longNames: this.longNames,
      offline: typeof navigator !== 'undefined' && !navigator.onLine,
    };
    for (const listener of this.listeners) listener();
  }
}

function accountId(): string {
  const state = session.current();
  return state.kind === 'signed-in' ? state.user.id : 'nobody';
}

/** Every file in the target folder by lower-cased name (names are unique ignoring case). */
async function namesIn(parentId: string | null): Promise<Map<string, Node>> {
  const names = new Map<string, Node>();
  let cursor: string | undefined;
  do {
    const page = await data(
      api.GET('/nodes', { params: { query: { parent_id: parentId ?? 'root', limit: 1000, ...(cursor ? { cursor } : {}) } } }),
    );
    for (const node of page.items) names.set(node.name.toLowerCase(), node);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return names;
}

/** A failed request as tus-js-client reports it (no response when nothing answered). */
function answerOf(error: Error): FailedAnswer {
  const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } | null }).originalResponse;
  return readAnswer(response?.getStatus() ?? 0, response?.getBody());
}

export const uploadQueue = new UploadQueue();
