import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { formatBytes } from '../../ui/format.ts';
import { Icon } from '../../ui/Icon.tsx';
import { middleOut } from '../../ui/middleOut.ts';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { FolderPicker } from '../../kits/folders/index.ts';
import { backupDestination } from '../../kits/phone-backup/index.ts';
import { uploadQueue, useLeftBehind, useSaysKeepOpen } from '../../kits/upload/index.ts';
import { openSharedInbox, WAITING_LIMITS, type SharedItem } from '../../service-worker/share-inbox.ts';
import { whenFinished } from './progress.ts';
import { onlyPhotosAndVideos, sharedWords } from './words.ts';
import './share-target.css';

/** Names this screen's uploads in the upload manifest: after a reload the files are still here to save again, so the general "choose them again" notice leaves them to this screen. */
const SHARE_BATCH = 'shared-with-hearth';

const inbox = openSharedInbox();
/** What waits for this account on this device: another account's shares are never listed. */
const inboxQuery = (userId: string) => ({
  queryKey: ['share-target', 'inbox', userId] as const,
  queryFn: () => inbox.list(userId),
  enabled: userId !== '',
});

/** A folder said in words, found (or made) only when saving. null: My files itself. */
interface Destination {
  path: string;
  folderId(): Promise<string | null>;
}

const MY_FILES: Destination = { path: 'My files', folderId: async () => null };

type Phase =
  | { kind: 'ready' }
  | { kind: 'saving'; path: string }
  | { kind: 'saved'; path: string; folderId: string | null; words: string; count: number }
  | { kind: 'not-saved'; count: number; reason: string | null }
  | { kind: 'failed'; message: string };

/**
 * "Save to Hearth": what the phone's Share sheet sent, waiting on this phone until the person
 * signed in saves it into a folder (sent by the upload queue, with their session), or lets it
 * go. Signed out, the sign-in screen shows at this address first, and the files wait. Only the
 * account signed in when a share arrived (or, for one that arrived signed out, the first to
 * sign in) ever sees it here.
 */
export function SaveSharedPage() {
  const session = useSession();
  const userId = session.kind === 'signed-in' ? session.user.id : '';
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const shared = useQuery(inboxQuery(userId));
  const items = shared.data ?? [];
  const photosOnly = onlyPhotosAndVideos(items.map((item) => item.file));
  const fallback = useQuery({
    queryKey: ['share-target', 'destination', userId, photosOnly] as const,
    queryFn: (): Promise<Destination> => (photosOnly ? backupDestination(userId) : Promise.resolve(MY_FILES)),
    enabled: items.length > 0,
  });
  const [picked, setPicked] = useState<Destination | null>(null);
  const [picking, setPicking] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'ready' });
  const left = useLeftBehind(userId || null);
  const destination = picked ?? fallback.data ?? null;
  const titleId = useId();

  useSaysKeepOpen(phase.kind === 'saving');

  const save = async (what: SharedItem[], where: Destination) => {
    setPhase({ kind: 'saving', path: where.path });
    try {
      const folderId = await where.folderId();
      const earlier = new Set(uploadQueue.state().items.map((item) => item.key));
      await uploadQueue.add(
        what.map((item) => item.file),
        folderId,
        { batch: SHARE_BATCH },
      );
      // Files the folder already had are not queued: only what was queued now is this save's (a
      // file an earlier page left half-sent continues into the folder it was going to).
      const ours = new Set(
        uploadQueue
          .state()
          .items.filter((item) => !earlier.has(item.key))
          .map((item) => item.key),
      );
      const outcome = await whenFinished(uploadQueue, ours);
      if (outcome.kind === 'not-saved') {
        setPhase({ kind: 'not-saved', count: outcome.count, reason: outcome.reason });
        return;
      }
      // They are on the server now: they leave the phone, even if this screen was left meanwhile.
      await inbox.remove(what.map((item) => item.id)).catch(() => undefined);
      await queryClient.invalidateQueries({ queryKey: inboxQuery(userId).queryKey });
      setPhase({ kind: 'saved', path: where.path, folderId, words: sharedWords(what.map((item) => item.file)), count: what.length });
    } catch (caught) {
      setPhase({ kind: 'failed', message: caught instanceof Error ? caught.message : String(caught) });
    }
  };

  const letGo = async () => {
    // What an earlier page of this screen left half-sent is let go of too: nothing asks for it later.
    uploadQueue.forgetUnsent(...left.filter((u) => u.batch === SHARE_BATCH).map((u) => u.id));
    await inbox.remove(items.map((item) => item.id)).catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: inboxQuery(userId).queryKey });
    setPhase({ kind: 'ready' });
  };

  const saving = phase.kind === 'saving';
  return (
    <>
      <div className="topbar">
        <h1 id={titleId}>Save to Hearth</h1>
      </div>
      <section className="share-target" aria-labelledby={titleId}>
        {shared.isPending && <Spinner label="Looking for what you shared" />}
        {shared.isError && <Notice tone="error">This phone could not open what you shared: {shared.error.message}</Notice>}
        {phase.kind === 'saved' && <SavedNotice phase={phase} />}
        {shared.isSuccess && items.length === 0 && phase.kind !== 'saved' && <NothingHere reason={params.get('share')} />}
        {items.length > 0 && (
          <>
            <p className="share-target-intro">
              <strong>{capitalised(sharedWords(items.map((item) => item.file)))}</strong> shared with Hearth, waiting to be saved.
            </p>
            <ul className="share-target-list" aria-label="Shared with Hearth">
              {items.map((item) => (
                <SharedRow key={item.id} file={item.file} />
              ))}
            </ul>
            <SaveInto path={destination?.path ?? '…'} saving={saving} onChoose={() => setPicking(true)} />
            {fallback.isError && !picked && <Notice tone="error">{fallback.error.message}</Notice>}
            <PhaseNotice phase={phase} />
            <div className="row share-target-actions">
              <Button variant="primary" icon="upload" disabled={saving || !destination} onClick={() => void save(items, destination!)}>
                {phase.kind === 'not-saved' || phase.kind === 'failed' ? 'Try again' : 'Save to Hearth'}
              </Button>
              <Button variant="quiet" disabled={saving} onClick={() => void letGo()}>
                Don’t save
              </Button>
            </div>
            <p className="muted">
              Don’t save only lets them go from Hearth: they stay where you shared them from, such as your gallery. Hearth lets go of them
              by itself after a day.
            </p>
          </>
        )}
      </section>
      {picking && (
        <PickSaveFolder
          onPick={(folder) => {
            setPicked(folder);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </>
  );
}

/** Saved: where they are now, one tap away. */
function SavedNotice({ phase }: { phase: Extract<Phase, { kind: 'saved' }> }) {
  return (
    <div className="notice share-target-saved" role="status">
      <p>
        <strong>Saved.</strong> {capitalised(phase.words)} {phase.count === 1 ? 'is' : 'are'} now in {phase.path}.
      </p>
      <Link className="btn btn-primary" to={phase.folderId ? `/files/${phase.folderId}` : '/files'}>
        <Icon name="folder" />
        Open {lastPart(phase.path)}
      </Link>
    </div>
  );
}

function SaveInto({ path, saving, onChoose }: { path: string; saving: boolean; onChoose: () => void }) {
  return (
    <div className="share-target-where">
      <p>
        Save into{' '}
        <span className="share-target-folder">
          <Icon name="folder" />
          <strong>{path}</strong>
        </span>
      </p>
      <Button icon="folder" disabled={saving} onClick={onChoose}>
        Choose another folder
      </Button>
    </div>
  );
}

/** Saving, or why the last save did not go through. */
function PhaseNotice({ phase }: { phase: Phase }) {
  return (
    <>
      {phase.kind === 'saving' && (
        <p role="status" className="share-target-progress">
          Saving into {phase.path}… Keep Hearth open until they are sent.
        </p>
      )}
      {phase.kind === 'not-saved' && (
        <Notice tone="error">
          {phase.count === 1 ? '1 was not saved' : `${phase.count.toLocaleString()} were not saved`}
          {phase.reason ? `: ${phase.reason}` : '.'} They are still on this phone: try again, or let them go.
        </Notice>
      )}
      {phase.kind === 'failed' && <Notice tone="error">Nothing was saved: {phase.message}</Notice>}
    </>
  );
}

function PickSaveFolder({ onPick, onClose }: { onPick: (destination: Destination) => void; onClose: () => void }) {
  return (
    <FolderPicker
      title="Where to save them"
      intro={<p className="muted">Open the folder they should go into, then choose it below.</p>}
      choice={(here) => ({ label: here ? `Save into ${here.name}` : 'Save into My files', disabled: false })}
      busy={false}
      error={null}
      onPick={(folder) => onPick(folder ? { path: folder.name, folderId: async () => folder.id } : MY_FILES)}
      onClose={onClose}
    />
  );
}

/** The screen with nothing waiting: why, when the share said so, and how to share to Hearth. */
function NothingHere({ reason }: { reason: string | null }) {
  const said =
    reason === 'missed'
      ? canReceive()
        ? 'Hearth was not ready on this phone yet, so what you shared did not arrive. It is ready now: share it again.'
        : 'What you shared did not arrive: Hearth can receive shares only at its secure address.'
      : reason === 'no-files'
        ? 'What you shared was a link or some text. Hearth keeps photos, videos and files, so there was nothing to save.'
        : reason === 'not-kept'
          ? 'This phone could not keep what you shared, perhaps for lack of space. Try sharing it again.'
          : reason === 'too-much'
            ? `That was more than Hearth keeps waiting on this phone (${WAITING_LIMITS.files} files or ${formatBytes(WAITING_LIMITS.bytes)} with what already waits), so none of it was kept. Save what is waiting first, or share fewer at a time; large videos go best through Upload in My files.`
            : reason === 'refused'
              ? 'Another website tried to send files to Hearth. Nothing was kept: Hearth only takes what you share from this phone’s Share menu.'
              : null;
  return (
    <div className="empty">
      {said ? (
        <p>
          <strong>{said}</strong>
        </p>
      ) : (
        <p>
          <strong>Nothing is waiting to be saved.</strong>
        </p>
      )}
      <p className="muted">To save photos or files from another app, such as your phone’s gallery, tap Share there and choose Hearth.</p>
      <Link className="btn" to="/files">
        <Icon name="folder" />
        Go to My files
      </Link>
    </div>
  );
}

/** One shared file: a small picture of a photo, else its kind, with its name and size. */
function SharedRow({ file }: { file: File }) {
  const icon = file.type.startsWith('video/') ? 'video' : file.type.startsWith('image/') ? 'photo' : 'file';
  return (
    <li className="share-target-item">
      <span className="share-target-thumb">{icon === 'photo' ? <SharedPicture file={file} /> : <Icon name={icon} />}</span>
      <span className="share-target-name" title={file.name}>
        {middleOut(file.name, 48)}
      </span>
      <span className="muted share-target-size">{formatBytes(file.size)}</span>
    </li>
  );
}

/** The photo itself, from the bytes on the phone; its address is let go of with the row. */
function SharedPicture({ file }: { file: File }) {
  const img = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const url = URL.createObjectURL(file);
    img.current!.src = url;
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return <img ref={img} alt="" />;
}

/** A service worker, which receives shares, runs only at a secure address (HTTPS, or localhost). */
function canReceive(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator;
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function lastPart(path: string): string {
  return path.split('/').at(-1) ?? path;
}
