import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { useIsPhone } from '../../ui/useIsPhone.ts';
import { uploadQueue } from '../upload/index.ts';
import { cardOffered, useCutBackup } from './BackUpPhone.tsx';
import { isBusy, phoneBackup, usePhoneBackup } from './run.ts';

const isMedia = (file: File) => /^(image|video)\//.test(file.type) || file.type === '';

/**
 * The Photos bar's one main way to add photos, and the others folded under More: on a phone
 * "Back up this phone" (Upload under More); on a computer Upload (a backup of photos or of a
 * folder under More, the folder's photos going into a folder of its own name). While a phone's
 * backup card is on screen (`withCard`: the page shows the first backup's card) it offers that
 * button, so the bar does not say it twice.
 */
export function AddPhotos({ parentId = null, withCard = true }: { parentId?: string | null; withCard?: boolean }) {
  const phone = useIsPhone();
  const run = usePhoneBackup();
  const cut = useCutBackup();
  const busy = isBusy(run);
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const backupInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const uploadInput = useRef<HTMLInputElement>(null);
  useCloseOnOutside(open, wrapper, () => setOpen(false));

  const pick = (input: HTMLInputElement | null) => {
    setOpen(false);
    input?.click();
  };
  const take = (input: HTMLInputElement) => {
    const files = input.files ? [...input.files] : [];
    input.value = '';
    return files;
  };
  const cardShown = phone && ((withCard && cardOffered(run)) || cut.count > 0);

  return (
    <div className="add-photos" ref={wrapper}>
      <input
        ref={backupInput}
        className="visually-hidden"
        type="file"
        multiple
        accept="image/*,video/*"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => void phoneBackup.start(take(event.target).filter(isMedia))}
      />
      <input
        ref={folderInput}
        className="visually-hidden"
        type="file"
        multiple
        // The folder picker has no typed prop; Preact sets it as the input's property, where '' would mean off.
        {...{ webkitdirectory: 'true' }}
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = take(event.target);
          // "Pictures/Holiday/IMG_1.jpg": the folder chosen is the first part.
          const folderName = files[0]?.webkitRelativePath.split('/')[0] || undefined;
          void phoneBackup.start(files.filter(isMedia), { folderName });
        }}
      />
      <input
        ref={uploadInput}
        className="visually-hidden"
        type="file"
        multiple
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const files = take(event.target);
          if (files.length > 0) void uploadQueue.add(files, parentId);
        }}
      />
      {phone ? (
        !cardShown && (
          <Button variant="primary" icon="phone" aria-label="Back up this phone" disabled={busy} onClick={() => pick(backupInput.current)}>
            {/* A narrow phone says it shorter, beside the title on one line. */}
            <span className="add-photos-long">Back up this phone</span>
            <span className="add-photos-short">Back up</span>
          </Button>
        )
      ) : (
        <Button variant="primary" icon="upload" onClick={() => pick(uploadInput.current)}>
          Upload
        </Button>
      )}
      <button
        type="button"
        className={phone ? 'btn btn-icon add-photos-more' : 'btn add-photos-more'}
        aria-label={phone ? 'Add photos' : undefined}
        title={phone ? 'Add photos' : undefined}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((was) => !was)}
      >
        <Icon name={phone ? 'add' : 'more'} />
        {!phone && 'More'}
      </button>
      {open && (
        <ul id={menuId} className="menu add-photos-menu" aria-label="Ways to add photos">
          {phone ? (
            <li>
              <button type="button" onClick={() => pick(uploadInput.current)}>
                <Icon name="upload" />
                Upload
              </button>
            </li>
          ) : (
            <>
              <li>
                <button type="button" disabled={busy} onClick={() => pick(backupInput.current)}>
                  <Icon name="photo" />
                  Back up photos
                </button>
              </li>
              <li>
                <button type="button" disabled={busy} onClick={() => pick(folderInput.current)}>
                  <Icon name="folder" />
                  Back up a folder
                </button>
              </li>
            </>
          )}
        </ul>
      )}
    </div>
  );
}

/** A tap or click outside, or Escape, closes the menu. */
function useCloseOnOutside(open: boolean, wrapper: React.RefObject<HTMLDivElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open, wrapper, close]);
}
