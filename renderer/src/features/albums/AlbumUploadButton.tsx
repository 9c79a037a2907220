import { useId, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { uploadQueue } from '../../kits/upload/index.ts';
import { LinkConsent } from './LinkConsent.tsx';
import { uploadFolderOf, type Album } from './queries.ts';

/**
 * Photos straight from this phone or computer into the album: they are the sender's own
 * files, in Albums/<album name> of their My files, sent by the one upload queue (its panel shows
 * them), and the server adds each to the album as it completes. In someone else's album the
 * sender first says whether its link may show them (the server keeps the answer for what they send).
 */
export function AlbumUploadButton({ album, onError }: { album: Album; onError: (message: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);
  const [onLinks, setOnLinks] = useState(false);
  const theirs = album.role !== 'owner';
  const send = async (files: File[]) => {
    onError(null);
    setBusy(true);
    try {
      const folder = await uploadFolderOf(album.id, theirs ? onLinks : undefined);
      void uploadQueue.add(files, folder.id, { albumId: album.id });
    } catch (error) {
      onError(error instanceof Error ? error.message : 'The photos could not be sent.');
    } finally {
      setBusy(false);
    }
  };
  const choose = () => {
    setAsking(false);
    input.current?.click();
  };
  return (
    <>
      <input
        ref={input}
        id={id}
        className="visually-hidden"
        type="file"
        multiple
        accept="image/*,video/*"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = event.target.files;
          if (files && files.length > 0) void send([...files]);
          event.target.value = '';
        }}
      />
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => (theirs ? setAsking(true) : choose())}>
        <Icon name="upload" />
        Upload
      </button>
      {asking && (
        <Dialog title={`Upload to “${album.name}”`} onClose={() => setAsking(false)}>
          <p className="dialog-text">Your photos and videos stay yours, in Albums › {album.name} of your files.</p>
          <LinkConsent album={album} checked={onLinks} onChange={setOnLinks} />
          <div className="dialog-actions">
            <Button onClick={() => setAsking(false)}>Cancel</Button>
            <Button variant="primary" icon="upload" onClick={choose}>
              Choose photos
            </Button>
          </div>
        </Dialog>
      )}
    </>
  );
}
