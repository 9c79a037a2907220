import type { Upload } from 'tus-js-client';
import { API_BASE } from '../../api/client.ts';
import { humanMessage } from '../../api/errors.ts';
import { session } from '../../api/session.ts';
import { queryClient } from '../../app/queryClient.ts';
import { fileKeys } from '../files/queries.ts';

export type UploadStatus = 'queued' | 'sending' | 'paused' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  key: string;
  name: string;
  size: number;
  sent: number;
  status: UploadStatus;
  parentId: string | null;
  error: string | null;
}

/** Files sent at once: enough to fill a home link, few enough that each shows progress. */
const PARALLEL = 3;
/** A dropped network is retried on its own for about two minutes, then waits for "online". */
const RETRY_DELAYS = [0, 1_000, 3_000, 5_000, 10_000, 15_000, 20_000, 30_000, 30_000];

interface Entry {
  item: UploadItem;
  file: File;
  upload: Upload | null;
}

/**
 * The uploads of this tab: a queue sent with tus-js-client, a few at a time, each resumable.
 * Client state (progress of bytes leaving this device), so it lives here rather than in the
 * query cache; what lands on the server is read back through the cache.
 */
class UploadQueue {
  private entries: Entry[] = [];
  private snapshot: UploadItem[] = [];
  private readonly listeners = new Set<() => void>();
  private counter = 0;

  constructor() {
    if (typeof window !== 'undefined') window.addEventListener('online', () => this.resumeFailed());
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  items = (): UploadItem[] => this.snapshot;

  add(files: Iterable<File>, parentId: string | null): void {
    for (const file of files) {
      this.counter += 1;
      this.entries.push({
        file,
        upload: null,
        item: { key: `u${this.counter}`, name: file.name, size: file.size, sent: 0, status: 'queued', parentId, error: null },
      });
    }
    this.changed();
    this.pump();
  }

  pause(key: string): void {
    const entry = this.find(key);
    if (!entry || (entry.item.status !== 'sending' && entry.item.status !== 'queued')) return;
    void entry.upload?.abort(false);
    this.update(entry, { status: 'paused' });
    this.pump();
  }

  resume(key: string): void {
    const entry = this.find(key);
    if (!entry || (entry.item.status !== 'paused' && entry.item.status !== 'failed')) return;
    this.update(entry, { status: 'queued', error: null });
    this.pump();
  }

  cancel(key: string): void {
    const entry = this.find(key);
    if (!entry || entry.item.status === 'done') return;
    // Termination tells the server to drop what it received.
    void entry.upload?.abort(true).catch(() => undefined);
    this.update(entry, { status: 'cancelled' });
    this.pump();
  }

  clearFinished(): void {
    this.entries = this.entries.filter((e) => !['done', 'cancelled'].includes(e.item.status));
    this.changed();
  }

  private resumeFailed(): void {
    for (const entry of this.entries) if (entry.item.status === 'failed') this.update(entry, { status: 'queued', error: null });
    this.pump();
  }

  private find(key: string): Entry | undefined {
    return this.entries.find((e) => e.item.key === key);
  }

  private pump(): void {
    const sending = this.entries.filter((e) => e.item.status === 'sending').length;
    const next = this.entries.filter((e) => e.item.status === 'queued').slice(0, Math.max(0, PARALLEL - sending));
    for (const entry of next) void this.start(entry);
  }

  private async start(entry: Entry): Promise<void> {
    this.update(entry, { status: 'sending' });
    const tus = await import('tus-js-client');
    if (entry.item.status !== 'sending') return;
    const metadata: Record<string, string> = { filename: entry.file.name, filetype: entry.file.type || 'application/octet-stream' };
    if (entry.item.parentId) metadata.parent_id = entry.item.parentId;
    const upload = new tus.Upload(entry.file, {
      endpoint: `${API_BASE}/uploads`,
      metadata,
      retryDelays: RETRY_DELAYS,
      removeFingerprintOnSuccess: true,
      // The fingerprint names the account and the folder too: the same file chosen again for
      // the same place continues where it stopped, and never joins another account's upload.
      fingerprint: async (file) => fingerprintOf(file, entry.item.parentId),
      onBeforeRequest: async (req) => {
        const token = await session.accessToken();
        if (token) req.setHeader('Authorization', `Bearer ${token}`);
      },
      onShouldRetry: (error) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        if (status === 401) {
          // An expired access token: refresh, then the retry carries the new one.
          void session.refresh(null).catch(() => undefined);
          return true;
        }
        // No answer (a dropped network), a server error, or offsets out of step: try again.
        // A full quota (507) or an absent drive (503) will not change by retrying.
        return status === 0 || status === 409 || status === 423 || status === 460 || (status >= 500 && status !== 503 && status !== 507);
      },
      onProgress: (sent) => this.update(entry, { sent }),
      onSuccess: () => {
        this.update(entry, { status: 'done', sent: entry.item.size });
        void queryClient.invalidateQueries({ queryKey: fileKeys.all });
        this.pump();
      },
      onError: (error) => {
        if (entry.item.status !== 'sending') return;
        const response = (error as { originalResponse?: { getStatus(): number; getBody(): string } }).originalResponse;
        this.update(entry, { status: 'failed', error: uploadErrorMessage(response?.getStatus() ?? 0, response?.getBody() ?? '') });
        this.pump();
      },
    });
    entry.upload = upload;
    const previous = await upload.findPreviousUploads();
    if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
    if (entry.item.status === 'sending') upload.start();
  }

  private update(entry: Entry, patch: Partial<UploadItem>): void {
    entry.item = { ...entry.item, ...patch };
    this.changed();
  }

  private changed(): void {
    this.snapshot = this.entries.map((e) => e.item);
    for (const listener of this.listeners) listener();
  }
}

function fingerprintOf(file: File, parentId: string | null): string {
  const state = session.current();
  const account = state.kind === 'signed-in' ? state.user.id : 'nobody';
  return ['hearth', account, parentId ?? 'root', file.name, file.type, file.size, file.lastModified].join('/');
}

function uploadErrorMessage(status: number, body: string): string {
  try {
    const code = (JSON.parse(body) as { error?: { code?: string } }).error?.code;
    if (code) return humanMessage(code as never, 'The upload failed.');
  } catch {
    // Not the envelope: fall through.
  }
  if (status === 0) return "Can't reach the server. It will continue when the connection is back.";
  return 'The upload failed. Try again.';
}

export const uploadQueue = new UploadQueue();
