import { useId, useRef, useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { uploadQueue } from '../upload/index.ts';
import { uploadFolderOf } from './queries.ts';

/**
 * Photos straight from this phone or computer into the album: they are the sender's own
 * files, in Albums/<album name> of their My files, sent by the one upload queue (its panel shows
 * them), and the server adds each to the album as it completes.
 */
export function AlbumUploadButton({ albumId, onError }: { albumId: string; onError: (message: string | null) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const [busy, setBusy] = useState(false);
  const send = async (files: File[]) => {
    onError(null);
    setBusy(true);
    try {
      const folder = await uploadFolderOf(albumId);
      void uploadQueue.add(files, folder.id, { albumId });
    } catch (error) {
      onError(error instanceof Error ? error.message : 'The photos could not be sent.');
    } finally {
      setBusy(false);
    }
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
      <button type="button" className="btn btn-primary" disabled={busy} onClick={() => input.current?.click()}>
        <Icon name="upload" />
        Upload
      </button>
    </>
  );
}
