import { useId, useRef } from 'react';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Notice, ProgressBar } from '../../ui/Notice.tsx';
import { BACKUP_FOLDER } from './folder.ts';
import { phoneBackup, usePhoneBackup, type BackupRun } from './run.ts';
import { deletedLine, sendingLine, summaryOf } from './summary.ts';
import { useUploads } from '../upload/index.ts';
import './phone-backup.css';

/**
 * "Back up this phone": the system picker for photos and videos (on iOS and Android its
 * "select all" takes the camera roll), and on a computer a folder too.
 */
export function BackUpButtons({ compact = false, inBar = false }: { compact?: boolean; inBar?: boolean }) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const filesId = useId();
  const folderId = useId();
  const run = usePhoneBackup();
  const busy = run.phase === 'looking';
  // On a phone the card offers the same button: one "Back up this phone" on screen, not two.
  const besideCard = inBar && cardOffered(run);
  const chosen = (input: HTMLInputElement) => {
    const list = input.files ? [...input.files] : [];
    input.value = '';
    void phoneBackup.start(list.filter((file) => /^(image|video)\//.test(file.type) || file.type === ''));
  };
  return (
    <div className={besideCard ? 'backup-buttons backup-buttons-beside-card' : 'backup-buttons'}>
      <input
        ref={files}
        id={filesId}
        className="visually-hidden"
        type="file"
        multiple
        accept="image/*,video/*"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => chosen(event.target)}
      />
      <input
        ref={folder}
        id={folderId}
        className="visually-hidden"
        type="file"
        multiple
        // React has no typed prop for the folder picker; the attribute is what browsers read.
        {...{ webkitdirectory: '' }}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => chosen(event.target)}
      />
      <Button variant="primary" icon="phone" disabled={busy} onClick={() => files.current?.click()}>
        Back up this phone
      </Button>
      {!compact && (
        <Button icon="folder" disabled={busy} className="backup-folder-button" onClick={() => folder.current?.click()}>
          Back up a folder
        </Button>
      )}
    </div>
  );
}

/** The run's progress and its answer, in plain words, at the top of Photos. */
export function BackupStatus() {
  const run = usePhoneBackup();
  const uploads = useUploads();
  if (run.phase === 'idle') return null;
  if (run.phase === 'looking')
    return (
      <section className="backup-status" aria-label="Backing up this phone">
        <p role="status">
          Looking at {run.done.toLocaleString()} of {run.total.toLocaleString()} photos and videos…
        </p>
        <ProgressBar value={run.total === 0 ? 0 : run.done / run.total} label="Looking at photos" />
      </section>
    );
  if (run.phase === 'failed')
    return (
      <section className="backup-status" aria-label="Backing up this phone">
        <Notice tone="error">The backup stopped: {run.message}</Notice>
        <IconButton icon="close" label="Close" onClick={() => phoneBackup.dismiss()} />
      </section>
    );
  const deleted = deletedLine(run.plan, run.deletedSent);
  const ours = uploads.items.filter((item) => item.parentId === run.folder?.id && !run.earlier.has(item.key));
  const sending = sendingLine(ours);
  const underWay = ours.some((item) => item.status !== 'done' && item.status !== 'failed' && item.status !== 'cancelled');
  return (
    <section className="backup-status" aria-label="Backing up this phone">
      <div className="backup-status-text">
        <p role="status" className="backup-summary">
          {summaryOf(run.plan)}
        </p>
        {run.folder && run.plan.toSend.length + (run.deletedSent ? run.plan.deleted.length : 0) > 0 && (
          <p className="muted">
            Into {run.folder.path}.{underWay && ' Keep Hearth open until they are sent.'}
          </p>
        )}
        {sending && <p className="backup-sending">{sending}.</p>}
        {deleted && <p className="muted">{deleted}.</p>}
        {run.plan.unreadable > 0 && <p className="muted">{run.plan.unreadable.toLocaleString()} could not be read on this device.</p>}
      </div>
      <div className="backup-status-actions">
        {deleted && !run.deletedSent && <Button onClick={() => phoneBackup.sendDeleted()}>Send deleted ones too</Button>}
        <IconButton icon="close" label="Close" onClick={() => phoneBackup.dismiss()} />
      </div>
    </section>
  );
}

function cardOffered(run: BackupRun): boolean {
  return run.phase === 'idle' && !phoneBackup.hasRun();
}

/** On a phone that has never backed up here: the offer, before the timeline. */
export function BackupCard() {
  const run = usePhoneBackup();
  const titleId = useId();
  if (!cardOffered(run)) return null;
  return (
    <section className="backup-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Keep this phone’s photos safe</h2>
      <p>Choose all your photos and videos: Hearth sends only the ones it does not have yet, into {BACKUP_FOLDER}.</p>
      <BackUpButtons compact />
    </section>
  );
}
