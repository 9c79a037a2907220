import { useId, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../api/useSession.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Notice, ProgressBar } from '../../ui/Notice.tsx';
import { isStillToSend, stillToSend, stoppedLine } from './cut.ts';
import { BACKUP_FOLDER } from './folder.ts';
import { isBusy, phoneBackup, usePhoneBackup, type BackupRun } from './run.ts';
import { deletedLine, sendingLine, summaryOf } from './summary.ts';
import { uploadQueue, useLeftBehind, useSaysKeepOpen, useUploads } from '../upload/index.ts';
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
  const cut = useCutBackup();
  const busy = isBusy(run);
  // On a phone the card offers the same button: one "Back up this phone" on screen, not two;
  // after a cut backup its card offers them on a computer too.
  const besideCard = inBar && cardOffered(run);
  const besideCutCard = inBar && cut.count > 0;
  const chosen = (input: HTMLInputElement) => {
    const list = input.files ? [...input.files] : [];
    input.value = '';
    void phoneBackup.start(list.filter((file) => /^(image|video)\//.test(file.type) || file.type === ''));
  };
  return (
    <div
      className={['backup-buttons', besideCard && 'backup-buttons-beside-card', besideCutCard && 'backup-buttons-beside-cut']
        .filter(Boolean)
        .join(' ')}
    >
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
        // The folder picker has no typed prop; Preact sets it as the input's property, where '' would mean off.
        {...{ webkitdirectory: 'true' }}
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
  const ours =
    run.phase === 'decided' ? uploads.items.filter((item) => item.parentId === run.folder?.id && !run.earlier.has(item.key)) : [];
  const underWay = ours.some((item) => item.status !== 'done' && item.status !== 'failed' && item.status !== 'cancelled');
  // This status asks to keep Hearth open; the upload panel then does not say it a second time.
  useSaysKeepOpen(underWay);
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
  if (run.phase === 'checking')
    return (
      <section className="backup-status" aria-label="Backing up this phone">
        <div className="backup-status-text">
          <p role="status" className="backup-summary">
            Checking…
          </p>
          <p className="muted">
            {run.total === 1
              ? 'Seeing whether Hearth already has it.'
              : `Seeing which of these ${run.total.toLocaleString()} photos and videos Hearth already has.`}{' '}
            Nothing is sent yet.
          </p>
        </div>
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
  const allSent = ours.length > 0 && ours.every((item) => item.status === 'done');
  // Once all new ones are sent the summary says so: the progress line would only repeat it
  // (it stays for deleted ones sent on their own, which the summary does not count).
  const sending = allSent && run.plan.toSend.length > 0 ? null : sendingLine(ours);
  return (
    <section className="backup-status" aria-label="Backing up this phone">
      <div className="backup-status-text">
        <p role="status" className="backup-summary">
          {summaryOf(run.plan, allSent)}
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

export function cardOffered(run: BackupRun): boolean {
  return run.phase === 'idle' && !phoneBackup.hasRun();
}

/** On a phone that has never backed up here: the offer, before the timeline. */
export function BackupCard() {
  const run = usePhoneBackup();
  const titleId = useId();
  if (!cardOffered(run)) return null;
  return (
    <section className="phone-backup-card" aria-labelledby={titleId}>
      <h2 id={titleId}>Keep this phone’s photos safe</h2>
      <p>Choose all your photos and videos: Hearth sends only the ones it does not have yet, into {BACKUP_FOLDER}.</p>
      <BackUpButtons compact />
    </section>
  );
}

/**
 * Photos left to send by a backup that stopped: an earlier page (a closed tab, a reload) left
 * them behind. Counted from the upload manifest, read again only when it changed.
 */
export function useCutBackup(): { count: number; forget(): void } {
  const session = useSession();
  const run = usePhoneBackup();
  const left = useLeftBehind(session.kind === 'signed-in' ? session.user.id : null);
  const count = run.phase === 'idle' ? stillToSend(left) : 0;
  return { count, forget: () => uploadQueue.forgetUnsent(...left.filter(isStillToSend).map((u) => u.id)) };
}

/**
 * On Photos, after a cut backup: run it again. A phone's picker keeps no hold on the files, so
 * they cannot be sent by themselves; chosen again, nothing is read twice (the hash cache) and
 * only the photos still missing go.
 */
export function CutBackupCard() {
  const cut = useCutBackup();
  const titleId = useId();
  if (cut.count === 0) return null;
  return (
    <section className="phone-backup-card phone-backup-card-cut" aria-labelledby={titleId}>
      <h2 id={titleId}>{stoppedLine(cut.count)}</h2>
      <p>Choose all your photos again: only the ones still missing are sent.</p>
      <div className="row">
        <BackUpButtons />
        <Button variant="quiet" onClick={cut.forget}>
          Don’t send them
        </Button>
      </div>
      <p className="muted">Nothing is deleted: the photos stay on this phone, and this note goes away.</p>
    </section>
  );
}

let reminderPutOff = false;

/** On the other pages: the same news, with the way to Photos. "Not now" puts it off for this visit. */
export function CutBackupReminder() {
  const cut = useCutBackup();
  const { pathname } = useLocation();
  const [, setPutOff] = useState(reminderPutOff);
  if (cut.count === 0 || reminderPutOff || pathname.startsWith('/gallery')) return null;
  return (
    <div className="notice backup-reminder" role="status">
      <p>
        <strong>{stoppedLine(cut.count)}.</strong> <span className="muted">Back up this phone again in Photos to send them.</span>
      </p>
      <div className="row">
        <Link className="btn btn-primary" to="/gallery">
          Open Photos
        </Link>
        <Button
          variant="quiet"
          onClick={() => {
            reminderPutOff = true;
            setPutOff(true);
          }}
        >
          Not now
        </Button>
      </div>
    </div>
  );
}
