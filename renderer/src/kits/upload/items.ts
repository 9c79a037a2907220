import type { Upload } from 'tus-js-client';
import type { ClashChoice, LongNamesChoice } from './batch.ts';
import type { FileKind } from './line.ts';

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

/** Files whose names are over the server's limit, with the shorter names they would get: one answer for the batch. */
export interface LongNamesQuestion {
  names: { name: string; shorter: string }[];
  answer(choice: LongNamesChoice): void;
}

export interface Entry {
  item: UploadItem;
  file: File;
  upload: Upload | null;
  manifestId: string;
  replaceNodeId: string | null;
  /** The album each photo of the batch joins once it is sent (the server adds it as the upload completes). */
  albumId: string | null;
}

export interface Snapshot {
  items: UploadItem[];
  alreadyHere: number;
  clash: ClashQuestion | null;
  longNames: LongNamesQuestion | null;
  /** The device says it has no network. */
  offline: boolean;
}
