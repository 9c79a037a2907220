import { useState, type FormEvent } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { AlbumShareDialog } from './AlbumShareDialog.tsx';
import { MAX_ALBUM_NAME } from './NameDialog.tsx';
import { useCreateAlbum, type Album } from './queries.ts';
import { selectionWords, type ShareAsAlbumDialogProps } from '../../kits/photos/index.ts';
import './albums.css';

/**
 * Share for a selection: the photos become a new album (by reference, nothing copied) and the
 * album's Share opens on its Link tab, where a link for anyone is made; the Family tab is a tap
 * away. An album, not a loose link: the family finds what they shared again in Albums, and the
 * link follows the album (take a photo out and the link shows it no more).
 */
export function ShareAsAlbumDialog({ nodes, note = null, suggestedName, onMade, onClose }: ShareAsAlbumDialogProps) {
  const create = useCreateAlbum();
  const [album, setAlbum] = useState<Album | null>(null);
  const [name, setName] = useState(suggestedName);
  if (album) return <AlbumShareDialog album={album} initialTab="link" onLeave={onClose} onClose={onClose} />;
  const what = selectionWords(nodes);
  const trimmed = name.trim();
  const tooLong = [...trimmed].length > MAX_ALBUM_NAME;
  return (
    <Dialog title={`Share ${what}`} onClose={onClose}>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate(
            { name: trimmed, node_ids: nodes.map((node) => node.id) },
            {
              onSuccess: (made) => {
                setAlbum(made);
                onMade();
              },
            },
          );
        }}
      >
        {note && <Notice tone="info">{note}</Notice>}
        <p className="dialog-text">
          {what.charAt(0).toUpperCase() + what.slice(1)} go{nodes.length === 1 ? 'es' : ''} into a new album (nothing is copied). Then make
          a link for anyone, or share the album with family.
        </p>
        <Field
          label="Album name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={tooLong ? `An album name is at most ${MAX_ALBUM_NAME} letters.` : null}
        />
        {create.error && <Notice tone="error">{create.error.message}</Notice>}
        <div className="dialog-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" icon="link" disabled={create.isPending || trimmed === '' || tooLong}>
            Make album
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
