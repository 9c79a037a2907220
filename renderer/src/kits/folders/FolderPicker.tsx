import { useState, type ReactNode } from 'react';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { NewFolderHere } from './NewFolderHere.tsx';
import { useFolders } from './queries.ts';
import './folder-picker.css';

/** What the picker's main button says in a folder (null: My files), and whether it can be pressed there. */
export interface PickerChoice {
  label: string;
  disabled: boolean;
}

/**
 * Browse folders from My files down and pick the one the dialog is in: moving items there, or
 * where a phone's backup goes. `offered` hides folders that cannot be chosen or entered (a
 * folder being moved cannot go inside itself).
 */
export function FolderPicker({
  title,
  intro,
  offered = () => true,
  choice,
  busy,
  error,
  onPick,
  onClose,
}: {
  title: string;
  intro?: ReactNode;
  offered?: (folder: Node) => boolean;
  choice: (here: Node | null) => PickerChoice;
  busy: boolean;
  error: string | null;
  onPick: (folder: Node | null) => void;
  onClose: () => void;
}) {
  const [trail, setTrail] = useState<Node[]>([]);
  const here = trail.at(-1) ?? null;
  const folders = useFolders(here?.id ?? null);
  const shown = folders.data?.filter(offered);
  const { label, disabled } = choice(here);
  return (
    <Dialog title={title} onClose={onClose}>
      {intro}
      <nav aria-label="Folder path" className="picker-path">
        <button type="button" className="btn btn-quiet" onClick={() => setTrail([])} disabled={trail.length === 0}>
          My files
        </button>
        {trail.map((folder, i) => (
          <span key={folder.id}>
            ›{' '}
            <button
              type="button"
              className="btn btn-quiet"
              onClick={() => setTrail(trail.slice(0, i + 1))}
              disabled={i === trail.length - 1}
            >
              {folder.name}
            </button>
          </span>
        ))}
      </nav>
      {folders.isPending && <Spinner label="Loading folders" />}
      {folders.isError && <Notice tone="error">{folders.error.message}</Notice>}
      <ul className="menu picker-list" aria-label="Folders">
        {shown?.map((folder) => (
          <li key={folder.id}>
            <button type="button" onClick={() => setTrail([...trail, folder])} aria-label={`Open ${folder.name}`}>
              <Icon name="folder" />
              {folder.name}
              <span className="picker-open" aria-hidden="true">
                ›
              </span>
            </button>
          </li>
        ))}
        {shown && shown.length === 0 && <li className="muted">No folders inside.</li>}
      </ul>
      <NewFolderHere key={here?.id ?? 'root'} parent={here} onMade={(folder) => setTrail([...trail, folder])} />
      {error && <Notice tone="error">{error}</Notice>}
      <div className="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="primary" disabled={busy || disabled} onClick={() => onPick(here)}>
          {label}
        </Button>
      </div>
    </Dialog>
  );
}
