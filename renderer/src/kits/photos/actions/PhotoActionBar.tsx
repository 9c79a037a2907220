import { useQuery } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { personNamesQuery } from '../../../api/queries.ts';
import type { Node } from '../../../api/types.ts';
import { IconButton } from '../../../ui/Button.tsx';
import type { Selection } from '../../../ui/useSelection.ts';
import { ActionButton, MoreActions, type Action, type PageAction } from './ActionButton.tsx';
import type { SelectionDialogs } from './dialogs.ts';
import { ActionToast, useActionMessages } from './messages.tsx';
import { MoveToFolder } from './MoveToFolder.tsx';
import { isMedia, skippedWords, splitByOwner } from './rules.ts';
import { useDownloadAction } from './useDownloadAction.ts';
import { useFavouriteAction } from './useFavouriteAction.ts';
import './photo-actions.css';

export interface PhotoActionBarProps {
  selection: Selection<Node>;
  /** The signed-in account: its own photos may be moved, thrown away and put in albums. */
  me: string;
  /** What a zip of the selection is called, and a new album's name until another is typed. */
  name: string;
  /** The page's own actions. */
  extra?: PageAction[];
  /** Move to trash in the bar (Photos) or under More (an album, where Take out is in the bar). */
  trashPlace?: 'bar' | 'more';
  /** The page's trash flow (it asks, shows progress and offers Undo); `note` says what was left out. */
  onTrash: (nodes: Node[], note: string | null) => void;
  trashBusy: boolean;
  /** Add to album and Share open these (the albums feature's, passed in by the page). */
  dialogs: SelectionDialogs;
}

type Open = 'more' | 'album' | 'share' | 'move' | null;

/**
 * The actions on a selection of photos and videos, one piece for Photos and for an album, on a
 * phone and a computer: Share (a new album of them, opened on its Link tab), Add to album,
 * Download (one file as it is, several as one zip), Favourite, Move to a folder and Move to
 * trash, and the page's own. Each offers only what the person may do: someone else's photos
 * (shown by an album or a share) they may download and mark, never move, throw away or put in
 * an album of theirs, and what was left out is said plainly. On a phone the actions sit in a bar
 * at the bottom, within a thumb's reach, the rarer ones under More. The dialogs and messages
 * outlive the selection (making an album ends it), so this is drawn whether or not it is on.
 */
export function PhotoActionBar({ selection, me, name, extra = [], trashPlace = 'bar', onTrash, trashBusy, dialogs }: PhotoActionBarProps) {
  const [open, setOpen] = useState<Open>(null);
  const messages = useActionMessages();
  // Kept when the dialog opens: the selection may end (or change) while it is up.
  const [chosen, setChosen] = useState<Node[]>([]);
  const nodes = selection.items();
  const { own, others } = splitByOwner(nodes, me);
  const names = useQuery({ ...personNamesQuery, enabled: others.length > 0 });
  const close = () => setOpen(null);
  const { download, downloading } = useDownloadAction(nodes, name, messages, close);
  const favourite = useFavouriteAction(selection, nodes, messages, close);
  const none = nodes.length === 0;

  const openWith = (what: Open, items: Node[]) => {
    messages.setFailure(null);
    setChosen(items);
    setOpen(what);
  };
  const skipped = (them: (it: string) => string) => skippedWords(others, them, names.data);
  const trash = () => {
    close();
    onTrash(
      own,
      skipped((it) => `put ${it} in the trash`),
    );
  };

  const actions: Action[] = [
    ...sharedActions({ ownMedia: own.filter(isMedia), none, openWith, download, downloading, favourite }),
    ...extra,
    ...(own.length > 0 || none ? ownActions({ none, onMove: () => openWith('move', own), trash, trashBusy, trashPlace }) : []),
  ];
  const inBar = actions.filter((action) => action.place === 'bar');
  const underMore = actions.filter((action) => action.place === 'more');
  const { AddToAlbum, ShareAsAlbum } = dialogs;

  return (
    <>
      {selection.active && (
        <div className="topbar selection-bar photo-selection-bar" role="toolbar" aria-label="Selected photos">
          <IconButton icon="close" label="Stop selecting" onClick={selection.clear} />
          <h1 aria-live="polite">{none ? 'Select photos' : `${selection.count.toLocaleString()} selected`}</h1>
          <div className="photo-actions">
            {inBar.map((action) => (
              <ActionButton key={action.label} action={action} />
            ))}
            {underMore.length > 0 && (
              <ActionButton action={{ label: 'More', icon: 'more', onClick: () => setOpen('more'), place: 'bar', disabled: none }} />
            )}
          </div>
        </div>
      )}
      <ActionToast said={messages.said} failure={messages.failure} onDismiss={messages.dismiss} />

      {open === 'more' && <MoreActions title={`${selection.count.toLocaleString()} selected`} actions={underMore} onClose={close} />}
      {open === 'move' && (
        <MoveToFolder
          nodes={chosen}
          skipped={skipped((it) => `move ${it}`)}
          onMoved={(message) => {
            close();
            selection.clear();
            messages.tell(message);
          }}
          onClose={close}
        />
      )}
      {open === 'album' && (
        <Suspense fallback={null}>
          <AddToAlbum nodes={chosen} note={skipped((it) => `put ${it} in an album`)} onAdded={selection.clear} onClose={close} />
        </Suspense>
      )}
      {open === 'share' && (
        <Suspense fallback={null}>
          <ShareAsAlbum
            nodes={chosen}
            note={skipped((it) => `share ${it}`)}
            suggestedName={name}
            onMade={selection.clear}
            onClose={close}
          />
        </Suspense>
      )}
    </>
  );
}

/** What anyone may do with what they see: share and album only their own photos and videos. */
function sharedActions({
  ownMedia,
  none,
  openWith,
  download,
  downloading,
  favourite,
}: {
  ownMedia: Node[];
  none: boolean;
  openWith: (what: Open, items: Node[]) => void;
  download: () => Promise<void>;
  downloading: boolean;
  favourite: ReturnType<typeof useFavouriteAction>;
}): Action[] {
  const { allFavourite } = favourite;
  return [
    ...(ownMedia.length > 0 || none
      ? [
          { label: 'Share', icon: 'share', onClick: () => openWith('share', ownMedia), disabled: none, place: 'bar' } as const,
          {
            label: 'Add to album',
            short: 'Add',
            icon: 'albums',
            onClick: () => openWith('album', ownMedia),
            disabled: none,
            place: 'bar',
          } as const,
        ]
      : []),
    { label: 'Download', icon: 'download', onClick: () => void download(), disabled: none || downloading, place: 'bar' },
    {
      label: allFavourite ? 'Remove from favourites' : 'Favourite',
      short: allFavourite ? 'Unfavourite' : 'Favourite',
      icon: allFavourite ? 'star' : 'starOutline',
      onClick: favourite.toggleFavourite,
      disabled: none || favourite.pending,
      place: 'bar',
    },
  ];
}

/** What only the owner may do: move them to a folder, or to the trash. */
function ownActions({
  none,
  onMove,
  trash,
  trashBusy,
  trashPlace,
}: {
  none: boolean;
  onMove: () => void;
  trash: () => void;
  trashBusy: boolean;
  trashPlace: 'bar' | 'more';
}): Action[] {
  return [
    { label: 'Move to a folder', short: 'Move', icon: 'moveTo', onClick: onMove, disabled: none, place: 'more' },
    {
      label: 'Move to trash',
      short: 'Trash',
      brief: true,
      icon: 'trash',
      danger: true,
      onClick: trash,
      disabled: none || trashBusy,
      place: trashPlace,
    },
  ];
}
