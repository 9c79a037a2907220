import { useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useState } from 'react';
import { personNamesQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { formatBytes } from '../../ui/format.ts';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import type { Selection } from '../../ui/useSelection.ts';
import { AddToAlbumDialog, selectionWords, ShareAsAlbumDialog } from '../albums/index.ts';
import { downloadSelection } from './download.ts';
import { useFavourite } from './favourites.ts';
import { MoveToFolder } from './MoveToFolder.tsx';
import { isMedia, skippedWords, splitByOwner } from './rules.ts';
import './photo-actions.css';

const TOAST_MS = 10_000;

/** An action of the page's own (an album's Take out, Use as cover), beside the shared ones. */
export interface PageAction {
  label: string;
  /** What a phone's bottom bar shows under the icon, when the label is too long for it. */
  short?: string;
  icon: IconName;
  onClick: () => void;
  disabled?: boolean;
  /** In the bar itself, or under More. */
  place: 'bar' | 'more';
  /** The short words on a computer too (the name stays whole). */
  brief?: boolean;
}

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
export function PhotoActionBar({ selection, me, name, extra = [], trashPlace = 'bar', onTrash, trashBusy }: PhotoActionBarProps) {
  const [open, setOpen] = useState<Open>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  // Kept when the dialog opens: the selection may end (or change) while it is up.
  const [chosen, setChosen] = useState<Node[]>([]);
  const favourite = useFavourite();
  const nodes = selection.items();
  const { own, others } = splitByOwner(nodes, me);
  const names = useQuery({ ...personNamesQuery, enabled: others.length > 0 });
  const ownMedia = own.filter(isMedia);
  const allFavourite = nodes.length > 0 && nodes.every((node) => node.starred);
  const none = nodes.length === 0;

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [said]);

  const tell = (message: string) => {
    setFailure(null);
    setSaid(message);
  };
  const openWith = (what: Open, items: Node[]) => {
    setFailure(null);
    setChosen(items);
    setOpen(what);
  };
  const skipped = (them: (it: string) => string) => skippedWords(others, them, names.data);

  const download = async () => {
    setOpen(null);
    setFailure(null);
    setDownloading(true);
    try {
      const got = await downloadSelection(nodes, name);
      tell(
        got.kind === 'file'
          ? `Downloading “${got.name}”.`
          : `Downloading “${got.name}”: ${selectionWords(nodes)}, ${formatBytes(got.bytes)}. Your browser shows how far it is.`,
      );
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setDownloading(false);
    }
  };
  const toggleFavourite = () => {
    setOpen(null);
    const on = !allFavourite;
    favourite.mutate(
      { nodes, on },
      {
        onSuccess: ({ done, failed }) => {
          // The selection keeps items as they were chosen: give it the new mark, so the button turns.
          if (selection.active) {
            selection.set(
              done.map((node) => ({ ...node, starred: on })),
              true,
            );
          }
          const what = selectionWords(done);
          const message = on
            ? `${capitalise(what)} ${done.length === 1 ? 'is a favourite' : 'are favourites'} now: find ${done.length === 1 ? 'it' : 'them'} in Starred too.`
            : `${capitalise(what)} ${done.length === 1 ? 'is' : 'are'} no longer ${done.length === 1 ? 'a favourite' : 'favourites'}.`;
          if (failed.length > 0)
            setFailure(`${capitalise(selectionWords(failed))} could not be changed. Check your connection and try again.`);
          else tell(message);
        },
      },
    );
  };

  const shared: Action[] = [
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
      onClick: toggleFavourite,
      disabled: none || favourite.isPending,
      place: 'bar',
    },
  ];
  const mine: Action[] =
    own.length > 0 || none
      ? [
          { label: 'Move to a folder', short: 'Move', icon: 'moveTo', onClick: () => openWith('move', own), disabled: none, place: 'more' },
          {
            label: 'Move to trash',
            short: 'Trash',
            brief: true,
            icon: 'trash',
            danger: true,
            onClick: () => {
              setOpen(null);
              onTrash(
                own,
                skipped((it) => `put ${it} in the trash`),
              );
            },
            disabled: none || trashBusy,
            place: trashPlace,
          },
        ]
      : [];
  const actions: Action[] = [...shared, ...extra, ...mine];
  const inBar = actions.filter((action) => action.place === 'bar');
  const underMore = actions.filter((action) => action.place === 'more');

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
      {(said || failure) && (
        <div
          className={failure ? 'photo-actions-toast photo-actions-toast-error' : 'photo-actions-toast'}
          role={failure ? 'alert' : 'status'}
        >
          <span>{failure ?? said}</span>
          <button
            type="button"
            className="btn btn-quiet photo-actions-toast-close"
            aria-label="Dismiss"
            onClick={() => {
              setSaid(null);
              setFailure(null);
            }}
          >
            <Icon name="close" />
          </button>
        </div>
      )}

      {open === 'more' && (
        <Dialog title={`${selection.count.toLocaleString()} selected`} onClose={() => setOpen(null)}>
          <ul className="menu" aria-label="More actions">
            {underMore.map((action) => (
              <li key={action.label}>
                <button
                  type="button"
                  className={action.danger ? 'danger' : undefined}
                  disabled={action.disabled}
                  onClick={() => {
                    setOpen(null);
                    action.onClick();
                  }}
                >
                  <Icon name={action.icon} />
                  {action.label}
                </button>
              </li>
            ))}
          </ul>
        </Dialog>
      )}
      {open === 'move' && (
        <MoveToFolder
          nodes={chosen}
          skipped={skipped((it) => `move ${it}`)}
          onMoved={(message) => {
            setOpen(null);
            selection.clear();
            tell(message);
          }}
          onClose={() => setOpen(null)}
        />
      )}
      {open === 'album' && (
        <Suspense fallback={null}>
          <AddToAlbumDialog
            nodes={chosen}
            note={skipped((it) => `put ${it} in an album`)}
            onAdded={selection.clear}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
      {open === 'share' && (
        <Suspense fallback={null}>
          <ShareAsAlbumDialog
            nodes={chosen}
            note={skipped((it) => `share ${it}`)}
            suggestedName={name}
            onMade={selection.clear}
            onClose={() => setOpen(null)}
          />
        </Suspense>
      )}
    </>
  );
}

interface Action extends PageAction {
  danger?: boolean;
}

/** Icon and words; the words shrink to `short` under the icon in a phone's bottom bar, the name stays whole. */
function ActionButton({ action }: { action: Action }) {
  return (
    <button
      type="button"
      className={['btn', 'photo-action', action.danger && 'photo-action-danger'].filter(Boolean).join(' ')}
      aria-label={action.label}
      title={action.label}
      disabled={action.disabled}
      onClick={action.onClick}
    >
      <Icon name={action.icon} />
      <span className="photo-action-long" aria-hidden="true">
        {action.brief ? (action.short ?? action.label) : action.label}
      </span>
      <span className="photo-action-short" aria-hidden="true">
        {action.short ?? action.label}
      </span>
    </button>
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
