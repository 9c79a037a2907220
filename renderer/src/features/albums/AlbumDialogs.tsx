import { ConfirmDialog, Dialog } from '../../ui/Dialog.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { AlbumShareDialog, type RemovalUndo } from './AlbumShareDialog.tsx';
import { NameDialog } from './NameDialog.tsx';
import type { Album, useAlbumMutations } from './queries.ts';

/** Which of an album's dialogs is open. */
export type Open = 'people' | 'more' | 'rename' | 'delete' | 'leave' | null;

/**
 * The album's own dialogs: who is in it (and sharing), More (rename, share, delete; for a member
 * who is in it and leave), the new name, and the questions before deleting it or leaving it.
 */
export function AlbumDialogs({
  album,
  open,
  onOpen,
  mutations,
  onLeave,
  onGone,
  undo,
}: {
  album: Album;
  open: Open;
  onOpen: (open: Open) => void;
  mutations: ReturnType<typeof useAlbumMutations>;
  onLeave: () => void;
  /** The album is deleted: back to the albums. */
  onGone: () => void;
  /** Undo of the last removal of someone (the owner's). */
  undo?: RemovalUndo;
}) {
  const close = () => onOpen(null);
  return (
    <>
      {open === 'people' && <AlbumShareDialog album={album} onLeave={() => onOpen('leave')} onClose={close} undo={undo} />}
      {open === 'more' && <MoreForAlbum album={album} onOpen={onOpen} />}
      {open === 'rename' && (
        <NameDialog
          title="Rename album"
          action="Rename"
          initial={album.name}
          busy={mutations.update.isPending}
          error={mutations.update.error?.message ?? null}
          onSubmit={(name) => mutations.update.mutate({ name }, { onSuccess: close })}
          onClose={() => {
            mutations.update.reset();
            close();
          }}
        />
      )}
      {open === 'delete' && (
        <ConfirmDialog
          title={`Delete “${album.name}”?`}
          message={
            <>
              The album goes{album.members > 0 ? ', for everyone it is shared with too' : ''}. Its photos and videos stay where they are, in
              Photos and in their folders.
              {mutations.remove.error && <Notice tone="error">{mutations.remove.error.message}</Notice>}
            </>
          }
          confirm="Delete album"
          danger
          busy={mutations.remove.isPending}
          onConfirm={() => mutations.remove.mutate(undefined, { onSuccess: onGone })}
          onClose={close}
        />
      )}
      {open === 'leave' && (
        <ConfirmDialog
          title={`Leave “${album.name}”?`}
          message={`You will no longer see it. The photos you added to it leave with you (they stay in your Photos). ${album.owner_name} can add you again.`}
          confirm="Leave album"
          danger
          busy={mutations.removeMember.isPending}
          onConfirm={onLeave}
          onClose={close}
        />
      )}
    </>
  );
}

function MoreForAlbum({ album, onOpen }: { album: Album; onOpen: (open: Open) => void }) {
  return (
    <Dialog title={album.name} onClose={() => onOpen(null)}>
      <ul className="menu" aria-label={`Actions for ${album.name}`}>
        {album.role === 'owner' ? (
          <>
            <MenuItem icon="edit" text="Rename" onClick={() => onOpen('rename')} />
            <MenuItem icon="people" text="Share with family" onClick={() => onOpen('people')} />
            <MenuItem icon="trash" text="Delete album" danger onClick={() => onOpen('delete')} />
          </>
        ) : (
          <>
            <MenuItem icon="people" text="People in this album" onClick={() => onOpen('people')} />
            <MenuItem icon="logout" text="Leave album" danger onClick={() => onOpen('leave')} />
          </>
        )}
      </ul>
    </Dialog>
  );
}

function MenuItem({ icon, text, onClick, danger }: { icon: IconName; text: string; onClick: () => void; danger?: boolean }) {
  return (
    <li>
      <button type="button" className={danger ? 'danger' : undefined} onClick={onClick}>
        <Icon name={icon} />
        {text}
      </button>
    </li>
  );
}
