import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { AlbumCover } from './AlbumsPage.tsx';
import { LinkConsent } from './LinkConsent.tsx';
import { MAX_ALBUM_NAME } from './NameDialog.tsx';
import { useAddToAlbum, useAlbums, useCreateAlbum, type Album } from './queries.ts';
import { capitalise, selectionWords, type AddToAlbumDialogProps } from '../../kits/photos/index.ts';
import { countWords } from './words.ts';
import './albums.css';

/** How long the message after adding stays. */
const TOAST_MS = 10_000;

/**
 * "Add to album" for a selection: a new album named here, or one the person may add to (their
 * own, and those shared with them to add to). Nothing is copied: the album refers to the photos.
 * Someone else's album asks first whether its link may show them. Once added it says so for a
 * while, with a way to the album.
 */
export function AddToAlbumDialog({ nodes, note = null, onAdded, onClose }: AddToAlbumDialogProps) {
  const [done, setDone] = useState<{ message: string; albumId: string } | null>(null);
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(onClose, TOAST_MS);
    return () => clearTimeout(timer);
  }, [done, onClose]);
  if (done) {
    return (
      <div className="album-toast" role="status">
        {done.message}
        <Link className="album-toast-link" to={`/albums/${done.albumId}`}>
          Open album
        </Link>
      </div>
    );
  }
  return (
    <ChooseAlbum
      nodes={nodes}
      note={note}
      onDone={(message, albumId) => {
        setDone({ message, albumId });
        onAdded();
      }}
      onClose={onClose}
    />
  );
}

function ChooseAlbum({
  nodes,
  note,
  onDone,
  onClose,
}: {
  nodes: readonly Node[];
  note: string | null;
  onDone: (message: string, albumId: string) => void;
  onClose: () => void;
}) {
  const media = nodes.filter(
    (node) => node.type === 'file' && (node.mime_type?.startsWith('image/') || node.mime_type?.startsWith('video/')),
  );
  const ids = media.map((node) => node.id);
  const what = selectionWords(media);
  const albums = useAlbums('contribute');
  const add = useAddToAlbum();
  const create = useCreateAlbum();
  const [name, setName] = useState('');
  const [asking, setAsking] = useState<Album | null>(null);
  const [onLinks, setOnLinks] = useState(false);
  const list = albums.data?.pages.flatMap((page) => page.items) ?? [];
  const busy = add.isPending || create.isPending;
  const failure = add.error?.message ?? create.error?.message ?? null;
  const trimmed = name.trim();
  const tooLong = [...trimmed].length > MAX_ALBUM_NAME;
  const addTo = (album: Album, links?: boolean) =>
    add.mutate(
      { albumId: album.id, nodeIds: ids, ...(links !== undefined && { onLinks: links }) },
      {
        onSuccess: (result) =>
          onDone(
            result.added === 0
              ? `${capitalise(what)} ${media.length === 1 ? 'was' : 'were'} in “${album.name}” already.`
              : `Added ${what} to “${album.name}”.`,
            album.id,
          ),
      },
    );

  if (asking) {
    return (
      <Dialog title={`Add ${what} to “${asking.name}”`} onClose={onClose}>
        <p className="dialog-text">
          “{asking.name}” is {asking.owner_name}’s album. Everyone in it will see {what}.
        </p>
        <LinkConsent album={asking} checked={onLinks} onChange={setOnLinks} />
        {failure && <Notice tone="error">{failure}</Notice>}
        <div className="dialog-actions">
          <Button onClick={() => setAsking(null)}>Back</Button>
          <Button variant="primary" icon="add" disabled={busy} onClick={() => addTo(asking, onLinks)}>
            Add
          </Button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog title={`Add ${what} to an album`} onClose={onClose} wide>
      {note && <Notice tone="info">{note}</Notice>}
      <form
        className="new-album-form"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate(
            { name: trimmed, node_ids: ids },
            { onSuccess: (album) => onDone(`“${album.name}” made, with ${what}.`, album.id) },
          );
        }}
      >
        <Field
          label="New album"
          placeholder="Name it: Summer holiday"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={tooLong ? `An album name is at most ${MAX_ALBUM_NAME} letters.` : null}
        />
        <Button type="submit" variant="primary" icon="add" disabled={busy || trimmed === '' || tooLong}>
          Make album
        </Button>
      </form>
      {failure && <Notice tone="error">{failure}</Notice>}
      <h3 className="add-to-heading">Or add to</h3>
      {albums.isPending && <Spinner label="Loading albums" />}
      {albums.isError && <Notice tone="error">{albums.error.message}</Notice>}
      {albums.isSuccess && list.length === 0 && <p className="muted">You have no albums yet: name a new one above.</p>}
      <AlbumChoices albums={albums} busy={busy} onChoose={(album) => (album.role === 'owner' ? addTo(album) : setAsking(album))} />
    </Dialog>
  );
}

/** The albums the person may add to (their own and those shared with them to add to), a page at a time. */
function AlbumChoices({
  albums,
  busy,
  onChoose,
}: {
  albums: ReturnType<typeof useAlbums>;
  busy: boolean;
  onChoose: (album: Album) => void;
}) {
  const list = albums.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      {list.length > 0 && (
        <ul className="album-choices" aria-label="Albums you can add to">
          {list.map((album) => (
            <li key={album.id}>
              <button type="button" className="album-choice" disabled={busy} onClick={() => onChoose(album)}>
                <AlbumCover album={album} />
                <span className="album-choice-text">
                  <span className="album-card-name">{album.name}</span>
                  <span className="album-card-meta">
                    {album.role === 'owner'
                      ? countWords(album.photos, album.videos)
                      : `${album.owner_name}’s · ${countWords(album.photos, album.videos)}`}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {albums.hasNextPage && (
        <div className="more">
          <Button onClick={() => void albums.fetchNextPage()} disabled={albums.isFetchingNextPage}>
            {albums.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
    </>
  );
}
