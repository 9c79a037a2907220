import { useEffect, useRef, useState } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { ProgressBar } from '../../ui/Notice.tsx';
import { formatBytes, formatDuration, plural } from '../../ui/format.ts';
import { LongNamesDialog } from './LongNamesDialog.tsx';
import { uploadQueue, type ClashQuestion, type UploadItem } from './queue.ts';
import { useUploads } from './useUploads.ts';
import './upload.css';

/** Uploads of this tab: one bar per file and one in total, with speed and time left. */
export function UploadPanel() {
  const { items, alreadyHere, clash, longNames } = useUploads();
  const visible = items.filter((item) => item.status !== 'cancelled');
  const total = visible.reduce((sum, item) => sum + item.size, 0);
  const sent = visible.reduce((sum, item) => sum + item.sent, 0);
  const speed = useSpeed(sent);
  if (longNames) return <LongNamesDialog question={longNames} />;
  if (visible.length === 0 && alreadyHere === 0 && !clash) return null;
  const active = visible.filter((item) => item.status === 'sending' || item.status === 'queued');
  const done = visible.filter((item) => item.status === 'done').length;
  const failed = visible.filter((item) => item.status === 'failed').length;
  const held = visible.filter((item) => item.status === 'held').length;
  const left = speed > 0 ? (total - sent) / speed : Number.NaN;
  const summary =
    active.length > 0
      ? `Uploading ${plural(visible.length - done, 'file')}`
      : held > 0
        ? `${plural(held, 'file')} waiting for space on Hearth`
        : failed > 0
          ? `${plural(failed, 'file')} not uploaded`
          : `${plural(done, 'file')} uploaded`;

  return (
    <section className="upload-panel" aria-label="Uploads">
      <header>
        <div className="upload-summary" aria-live="polite">
          <strong>{summary}</strong>
          <span className="muted">
            {total > 0 && `${formatBytes(sent)} of ${formatBytes(total)}`}
            {active.length > 0 && speed > 0 && ` · ${formatBytes(speed)}/s · ${formatDuration(left)} left`}
            {alreadyHere > 0 && `${total > 0 ? ' · ' : ''}${alreadyHere.toLocaleString()} already here`}
          </span>
        </div>
        {active.length === 0 && held === 0 && <IconButton icon="close" label="Close uploads" onClick={() => uploadQueue.clearFinished()} />}
      </header>
      {total > 0 && <ProgressBar value={sent / total} label="All uploads" />}
      <ul>
        {visible.map((item) => (
          <UploadRow key={item.key} item={item} />
        ))}
      </ul>
      {clash && <ClashDialog clash={clash} />}
    </section>
  );
}

function ClashDialog({ clash }: { clash: ClashQuestion }) {
  const count = clash.names.length;
  const title = count === 1 ? `“${clash.names[0]}” is already here` : `${count.toLocaleString()} files with these names are already here`;
  return (
    <Dialog title={title} onClose={() => clash.answer('skip')}>
      <p className="dialog-text">
        {count === 1
          ? 'A different file with the same name is in this folder.'
          : `Different files with the same names are in this folder (${clash.names.slice(0, 3).join(', ')}${count > 3 ? '…' : ''}).`}{' '}
        What should happen?
      </p>
      <ul className="menu choices">
        <li>
          <button type="button" onClick={() => clash.answer('keep-both')}>
            Keep both (the new {count === 1 ? 'one gets' : 'ones get'} a number)
          </button>
        </li>
        <li>
          <button type="button" onClick={() => clash.answer('replace')}>
            Replace (the old {count === 1 ? 'one stays' : 'ones stay'} as an earlier version)
          </button>
        </li>
        <li>
          <button type="button" onClick={() => clash.answer('skip')}>
            Skip {count === 1 ? 'it' : 'them'}
          </button>
        </li>
      </ul>
    </Dialog>
  );
}

function UploadRow({ item }: { item: UploadItem }) {
  const state = rowState(item);
  return (
    <li className={`upload-row upload-${item.status}`}>
      <div className="upload-row-text">
        <span className="upload-name">{item.name}</span>
        <span className="muted">{state}</span>
      </div>
      <ProgressBar value={item.size ? item.sent / item.size : 1} label={`Upload of ${item.name}`} />
      <div className="upload-actions">
        {(item.status === 'sending' || item.status === 'queued') && (
          <IconButton icon="pause" label={`Pause ${item.name}`} onClick={() => uploadQueue.pause(item.key)} />
        )}
        {(item.status === 'paused' || item.status === 'failed') && item.retryable && (
          <IconButton icon="play" label={`Resume ${item.name}`} onClick={() => uploadQueue.resume(item.key)} />
        )}
        {item.status !== 'done' && (
          <IconButton
            icon="close"
            label={`${item.retryable ? 'Cancel' : 'Dismiss'} ${item.name}`}
            onClick={() => uploadQueue.cancel(item.key)}
          />
        )}
      </div>
    </li>
  );
}

function rowState(item: UploadItem): string {
  switch (item.status) {
    case 'done':
      return 'Done';
    case 'failed':
      return item.error ?? 'Not uploaded';
    case 'paused':
      return 'Paused';
    case 'held':
      return item.error ?? 'Waiting for space on Hearth';
    case 'queued':
      return 'Waiting';
    default:
      return `${Math.floor((item.sent / Math.max(1, item.size)) * 100)}%`;
  }
}

/** Bytes per second over the last few seconds. */
function useSpeed(sent: number): number {
  const samples = useRef<{ at: number; sent: number }[]>([]);
  const [speed, setSpeed] = useState(0);
  useEffect(() => {
    const now = performance.now();
    const list = samples.current.filter((s) => now - s.at < 5_000 && s.sent <= sent);
    list.push({ at: now, sent });
    samples.current = list;
    const first = list[0]!;
    const seconds = (now - first.at) / 1000;
    setSpeed(seconds > 0.5 ? (sent - first.sent) / seconds : 0);
  }, [sent]);
  return speed;
}
