import type { Node } from '../../api/types.ts';
import { afterClash, afterLongNames, sortAgainstFolder, tooLong, type Chosen, type ClashChoice, type LongNamesChoice } from './batch.ts';
import type { AddOptions, ClashQuestion, Entry, LongNamesQuestion, Snapshot, UploadItem } from './items.ts';
import { kindOf } from './line.ts';
import { accountId, namesIn } from './lookups.ts';
import { manifest, matchIn, type Unsent } from './manifest.ts';
import { send } from './send.ts';
import { ScreenAwake } from './wake-lock.ts';
import { watchConnection } from './watch.ts';

export type { AddOptions, ClashQuestion, LongNamesQuestion, UploadItem, UploadStatus } from './items.ts';

/** Files sent at once: enough to fill a home link, few enough that each shows progress. */
const PARALLEL = 3;

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
    watchConnection({
      changed: () => this.changed(),
      resumeFailed: () => this.resumeFailed(),
      resumeConnection: () => this.resumeConnection(),
      resumeHeld: () => this.resumeHeld(),
      recheckAwake: () => void this.awake.recheck(),
    });
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
    for (const entry of next) void send(entry, this.sendHooks);
    // The screen stays on while anything is to be sent, waiting for the connection included:
    // a sleeping phone would not notice it come back.
    void this.awake.want(this.entries.some((e) => ['sending', 'queued', 'offline'].includes(e.item.status)));
  }

  /** What a file being sent changes in its queue. */
  private readonly sendHooks = {
    update: (entry: Entry, patch: Partial<UploadItem>) => this.update(entry, patch),
    unsentChanged: () => {
      this.unsentVersion += 1;
    },
    pump: () => this.pump(),
  };

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

export const uploadQueue = new UploadQueue();
