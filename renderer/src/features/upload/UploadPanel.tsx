import { useEffect, useRef, useState } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { ProgressBar } from '../../ui/Notice.tsx';
import { formatBytes, formatDuration, plural } from '../../ui/format.ts';
import { uploadQueue, type UploadItem } from './queue.ts';
import { useUploads } from './useUploads.ts';
import './upload.css';

/** Uploads of this tab: one bar per file and one in total, with speed and time left. */
export function UploadPanel() {
  const items = useUploads();
  const visible = items.filter((item) => item.status !== 'cancelled');
  const total = visible.reduce((sum, item) => sum + item.size, 0);
  const sent = visible.reduce((sum, item) => sum + item.sent, 0);
  const speed = useSpeed(sent);
  if (visible.length === 0) return null;
  const active = visible.filter((item) => item.status === 'sending' || item.status === 'queued');
  const done = visible.filter((item) => item.status === 'done').length;
  const left = speed > 0 ? (total - sent) / speed : Number.NaN;
  const summary =
    active.length > 0
      ? `Uploading ${plural(visible.length - done, 'file')}`
      : `${plural(done, 'file')} uploaded`;

  return (
    <section className="upload-panel" aria-label="Uploads">
      <header>
        <div className="upload-summary">
          <strong>{summary}</strong>
          <span className="muted">
            {formatBytes(sent)} of {formatBytes(total)}
            {active.length > 0 && speed > 0 && ` · ${formatBytes(speed)}/s · ${formatDuration(left)} left`}
          </span>
        </div>
        {active.length === 0 && <IconButton icon="close" label="Close uploads" onClick={() => uploadQueue.clearFinished()} />}
      </header>
      <ProgressBar value={total ? sent / total : 0} label="All uploads" />
      <ul>
        {visible.map((item) => (
          <UploadRow key={item.key} item={item} />
        ))}
      </ul>
    </section>
  );
}

function UploadRow({ item }: { item: UploadItem }) {
  const state =
    item.status === 'done'
      ? 'Done'
      : item.status === 'failed'
        ? item.error
        : item.status === 'paused'
          ? 'Paused'
          : item.status === 'queued'
            ? 'Waiting'
            : `${Math.floor((item.sent / Math.max(1, item.size)) * 100)}%`;
  return (
    <li className={`upload-row upload-${item.status}`}>
      <div className="upload-row-text">
        <span className="upload-name">{item.name}</span>
        <span className="muted" aria-live={item.status === 'failed' ? 'polite' : undefined}>
          {state}
        </span>
      </div>
      <ProgressBar value={item.size ? item.sent / item.size : 1} label={`Upload of ${item.name}`} />
      <div className="upload-actions">
        {(item.status === 'sending' || item.status === 'queued') && (
          <IconButton icon="pause" label={`Pause ${item.name}`} onClick={() => uploadQueue.pause(item.key)} />
        )}
        {(item.status === 'paused' || item.status === 'failed') && (
          <IconButton icon="play" label={`Resume ${item.name}`} onClick={() => uploadQueue.resume(item.key)} />
        )}
        {item.status !== 'done' && <IconButton icon="close" label={`Cancel ${item.name}`} onClick={() => uploadQueue.cancel(item.key)} />}
      </div>
    </li>
  );
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
