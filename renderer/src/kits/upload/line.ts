import { plural } from '../../ui/format.ts';

/** What a file is, as far as the words about it go ("56 photos", "3 videos", "4 files"). */
export type FileKind = 'photo' | 'video' | 'file';

export type LineStatus = 'queued' | 'sending' | 'paused' | 'held' | 'offline' | 'done' | 'failed' | 'cancelled';

export interface LineItem {
  status: LineStatus;
  size: number;
  sent: number;
  kind: FileKind;
  /** False once the server refused the file for good. */
  retryable: boolean;
  /** Sending, but the connection dropped and it is being tried again. */
  stalled: boolean;
}

export interface LineInput {
  items: readonly LineItem[];
  /** Files of the batch that were already in the folder (not sent). */
  alreadyHere: number;
  /** The device says it is offline. */
  offline: boolean;
  /** Bytes per second lately; 0 when not known yet (or nothing moves). */
  bytesPerSecond: number;
}

/**
 * The one line the upload panel shows, collapsed: "Uploading 56 photos · 12 of 56 · 3 min left".
 * `headline` is what is going on (said to screen readers when it changes), `details` how far
 * it has come, joined by " · ".
 */
export interface PanelLine {
  headline: string;
  details: string[];
  /** Bytes sent over bytes to send, for the thin bar; null when nothing was to be sent. */
  progress: number | null;
  /** Nothing more happens by itself (all sent, or what is left needs the person): it can be closed. */
  settled: boolean;
  /** Enough left that the person should hear "Keep Hearth open until they are sent". */
  long: boolean;
}

/** A batch worth "keep Hearth open": more than a handful of files, or more than a few seconds of sending. */
const LONG_FILES = 10;
const LONG_BYTES = 50 * 1024 * 1024;

const UNFINISHED: ReadonlySet<LineStatus> = new Set(['queued', 'sending', 'paused', 'held', 'offline']);

export function panelLine({ items, alreadyHere, offline, bytesPerSecond }: LineInput): PanelLine {
  const batch = items.filter((item) => item.status !== 'cancelled');
  const noun = nounFor(batch);
  const done = batch.filter((item) => item.status === 'done').length;
  const failed = batch.filter((item) => item.status === 'failed').length;
  const unfinished = batch.filter((item) => UNFINISHED.has(item.status));
  const moving = unfinished.filter((item) => item.status === 'queued' || item.status === 'sending' || item.status === 'offline');
  const counted = batch.filter((item) => item.retryable);
  const total = counted.reduce((sum, item) => sum + item.size, 0);
  const sent = counted.reduce((sum, item) => sum + Math.min(item.sent, item.size), 0);
  const progress = total > 0 ? sent / total : batch.length > 0 ? done / batch.length : null;
  const notUploaded = failed > 0 ? [`${failed.toLocaleString()} not uploaded`] : [];
  const here = alreadyHere > 0 ? [`${alreadyHere.toLocaleString()} already here`] : [];
  const remaining = moving.reduce((sum, item) => sum + Math.max(0, item.size - item.sent), 0);
  const long = moving.length > LONG_FILES || remaining > LONG_BYTES;

  if (unfinished.length === 0) {
    const headline =
      done > 0
        ? `${plural(done, noun.one, noun.many)} uploaded`
        : failed > 0
          ? `${plural(failed, noun.one, noun.many)} not uploaded`
          : alreadyHere > 0
            ? `${plural(alreadyHere, 'file')} already here`
            : 'Nothing to upload';
    return {
      headline,
      details: [...(done > 0 ? notUploaded : []), ...(done > 0 || failed > 0 ? here : [])],
      // Nothing arrived: an empty bar would only say it again.
      progress: done > 0 ? progress : null,
      settled: true,
      long: false,
    };
  }

  const howFar = batch.length > 1 ? [`${done.toLocaleString()} of ${batch.length.toLocaleString()}`] : [`${percent(progress ?? 0)}%`];
  // Those waiting for their turn say nothing of the connection; those under way do.
  const underWay = moving.filter((item) => item.status !== 'queued');
  const stalled = underWay.length > 0 && underWay.every((item) => item.status === 'offline' || item.stalled);
  if (moving.length > 0 && (offline || stalled))
    // Nothing moves: a speed or a time left would be a guess from before the cut.
    return { headline: 'Waiting for the connection', details: [...howFar, ...notUploaded], progress, settled: false, long };
  if (moving.length > 0) {
    const left = bytesPerSecond > 0 ? [timeLeft(remaining / bytesPerSecond)] : [];
    return {
      headline: `Uploading ${plural(batch.length, noun.one, noun.many)}`,
      details: [...howFar, ...left, ...notUploaded],
      progress,
      settled: false,
      long,
    };
  }
  const held = unfinished.filter((item) => item.status === 'held').length;
  if (held > 0)
    return { headline: 'Waiting for space on Hearth', details: [...howFar, ...notUploaded], progress, settled: false, long: false };
  const paused = unfinished.length;
  return {
    headline: `${plural(paused, noun.one, noun.many)} paused`,
    details: [...howFar, ...notUploaded],
    progress,
    settled: false,
    long: false,
  };
}

function nounFor(items: readonly LineItem[]): { one: string; many: string } {
  const kinds = new Set(items.map((item) => item.kind));
  if (kinds.size === 1 && kinds.has('photo')) return { one: 'photo', many: 'photos' };
  if (kinds.size === 1 && kinds.has('video')) return { one: 'video', many: 'videos' };
  if (kinds.size === 2 && !kinds.has('file')) return { one: 'photo or video', many: 'photos and videos' };
  return { one: 'file', many: 'files' };
}

function percent(ratio: number): number {
  return Math.floor(Math.max(0, Math.min(1, ratio)) * 100);
}

/** "3 min left", as a person says it: no seconds counting down on a long batch. */
export function timeLeft(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '';
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h left` : `${hours} h ${rest} min left`;
}

/** A file's kind from its type, as the browser tells it. */
export function kindOf(type: string): FileKind {
  if (type.startsWith('image/')) return 'photo';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}
