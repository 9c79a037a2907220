import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, data } from '../../../api/client.ts';
import { settingsQuery } from '../../../api/queries.ts';
import { Button } from '../../../ui/Button.tsx';
import { ConfirmDialog } from '../../../ui/Dialog.tsx';
import { Notice, ProgressBar, Spinner } from '../../../ui/Notice.tsx';
import { formatBytes, plural } from '../../../ui/format.ts';
import { consoleKeys } from '../keys.ts';
import { usePlaybackQueue, type PlaybackQueue } from './queries.ts';

/** Why nothing is being made while copies wait, in a parent's words. */
const PAUSED: Record<NonNullable<PlaybackQueue['paused']>, string> = {
  off: 'Switched off: no new copies are made.',
  unavailable: 'This PC has no ffmpeg, which makes the copies. Install ffmpeg, or set FFMPEG_PATH.',
  thumbnails: 'Waiting for new photos and videos to be processed first.',
  disk_space: 'Waiting for room: the disk of the videos is nearly full, and its space is kept for photos.',
  library_offline: 'Waiting for the drive of these videos to be connected.',
  quota:
    'Waiting for room: a copy counts in the storage of the person the video belongs to, and there is no room left in it. It is made once there is.',
};

/**
 * Videos some browsers cannot play get a copy they can (an iPhone's HEVC in Chrome on a laptop):
 * how the copies are going, the space they take, and the switch. Off keeps the copies made
 * (they still play); removing them is a separate step, since it takes playing away.
 */
export function PlaybackCopies() {
  const queue = usePlaybackQueue();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  /** The owner's choice while it is being saved: the box follows the click at once, not the answer. */
  const [choosing, setChoosing] = useState<boolean | null>(null);
  const toggle = useMutation({
    mutationFn: (on: boolean) => data(api.PATCH('/server/settings', { body: { make_playback_copies: on } })),
    onSuccess: async (settings) => {
      queryClient.setQueryData(settingsQuery.queryKey, settings);
      await queryClient.invalidateQueries({ queryKey: consoleKeys.playback });
    },
    onSettled: () => setChoosing(null),
  });
  const remove = useMutation({
    mutationFn: () => data(api.DELETE('/admin/playback-copies')),
    onSuccess: (next) => {
      queryClient.setQueryData(consoleKeys.playback, next);
      setConfirming(false);
    },
  });

  return (
    <section className="console-section" aria-labelledby="playback-title">
      <h2 id="playback-title">Videos for every browser</h2>
      <p className="muted section-lead">
        Some browsers can't play videos from iPhones. Hearth makes a copy they can play, in the background, and keeps the original as it is:
        downloads are always the original.
      </p>
      {queue.isPending && <Spinner label="Loading the video copies" />}
      {queue.isError && <Notice tone="error">{queue.error.message}</Notice>}
      {queue.data && (
        <div className="card console-card playback-card">
          <Progress queue={queue.data} />
          <dl className="facts facts-inline">
            <div>
              <dt>Copies made</dt>
              <dd>{queue.data.ready.toLocaleString()}</dd>
            </div>
            <div>
              <dt>Space they take</dt>
              <dd>{formatBytes(queue.data.bytes)}</dd>
            </div>
            {queue.data.failed > 0 && (
              <div>
                <dt>Could not be made</dt>
                <dd>{plural(queue.data.failed, 'video')}</dd>
              </div>
            )}
          </dl>
          <div className="choice">
            <label>
              <input
                type="checkbox"
                checked={choosing ?? queue.data.enabled}
                disabled={toggle.isPending}
                onChange={(event) => {
                  setChoosing(event.target.checked);
                  toggle.mutate(event.target.checked);
                }}
              />{' '}
              Make copies of videos that some browsers can't play
              {/* Said for the box as it is: "Off: …" under a ticked box reads as if it were off. */}
              <span className="hint">
                {(choosing ?? queue.data.enabled)
                  ? 'On: each such video gets a copy every browser plays. Untick to stop making new ones.'
                  : 'Off: no new copies are made. Those already made are kept, and still play.'}
              </span>
            </label>
          </div>
          {toggle.isError && <Notice tone="error">{toggle.error.message}</Notice>}
          {!queue.data.enabled && queue.data.ready > 0 && (
            <Button onClick={() => setConfirming(true)}>Remove the copies ({formatBytes(queue.data.bytes)})</Button>
          )}
        </div>
      )}
      {confirming && queue.data && (
        <ConfirmDialog
          title="Remove the video copies?"
          message={
            <>
              <p>
                This frees {formatBytes(queue.data.bytes)}. The original videos stay as they are, but {plural(queue.data.ready, 'video')}{' '}
                will not play in some browsers (Chrome and Firefox on a computer, many Android phones) until copies are made again.
              </p>
              {remove.isError && <Notice tone="error">{remove.error.message}</Notice>}
            </>
          }
          confirm="Remove the copies"
          danger
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onClose={() => setConfirming(false)}
        />
      )}
    </section>
  );
}

/** What the queue is doing now: one line, and a bar while a copy is made. */
function Progress({ queue }: { queue: PlaybackQueue }) {
  const waiting = queue.waiting > 0 ? `${plural(queue.waiting, 'video')} waiting` : null;
  if (queue.making) {
    const length = queue.making.duration_seconds ? ` of a ${videoLength(queue.making.duration_seconds)} video` : '';
    return (
      <div className="playback-now" role="status">
        <p>
          <strong>Making a copy{length}</strong>
          {waiting ? ` · ${waiting}` : ''}
        </p>
        <ProgressBar value={queue.making.progress} label="Copy being made" />
      </div>
    );
  }
  if (queue.waiting > 0 || queue.checking > 0) {
    return (
      <div className="playback-now" role="status">
        <p>
          <strong>{waiting ?? `${plural(queue.checking, 'video')} to look at`}</strong>
        </p>
        {queue.paused && <p className="muted">{PAUSED[queue.paused]}</p>}
      </div>
    );
  }
  const done = queue.ready > 0 ? 'Every copy is made.' : 'No video needs a copy yet.';
  return (
    <p className="playback-now" role="status">
      {queue.enabled ? done : PAUSED.off}
    </p>
  );
}

/** "2-minute", "45-second", "1-hour 10-minute": a video's length as an adjective. */
function videoLength(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))}-second`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}-minute`;
  const minutes = Math.round((seconds % 3600) / 60);
  return `${Math.floor(seconds / 3600)}-hour${minutes ? ` ${minutes}-minute` : ''}`;
}
