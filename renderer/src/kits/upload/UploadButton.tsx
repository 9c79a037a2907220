import { useId, useRef } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { uploadQueue } from './queue.ts';

/** Opens the phone's photo library or camera (or the file chooser on a computer). */
export function UploadButton({ parentId, accept }: { parentId: string | null; accept?: string }) {
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <>
      <input
        ref={input}
        id={id}
        className="visually-hidden"
        type="file"
        multiple
        accept={accept}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = event.target.files;
          if (files && files.length > 0) void uploadQueue.add([...files], parentId);
          event.target.value = '';
        }}
      />
      <button type="button" className="btn btn-primary" onClick={() => input.current?.click()}>
        <Icon name="upload" />
        Upload
      </button>
    </>
  );
}
