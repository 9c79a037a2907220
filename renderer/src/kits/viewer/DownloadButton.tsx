import { useState } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import type { ViewerAction, ViewerItem } from './types.ts';

/**
 * The viewer's Download: the original file at once, as always; when the photo on screen offers
 * other ways to have it (a photo with edits: "Download as edited"), a short menu with the
 * original first.
 */
export function DownloadButton<T extends ViewerItem>({
  item,
  onDownload,
  others,
}: {
  item: T;
  onDownload: (item: T) => void;
  others: ViewerAction<T>[];
}) {
  const [open, setOpen] = useState(false);
  if (others.length === 0) return <IconButton icon="download" label="Download" onClick={() => onDownload(item)} />;
  const choose = (run: () => void) => {
    setOpen(false);
    run();
  };
  return (
    <div className="viewer-download">
      <IconButton icon="download" label="Download" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} />
      {open && (
        <div className="viewer-download-menu" role="menu" aria-label="Download">
          <button type="button" role="menuitem" onClick={() => choose(() => onDownload(item))}>
            <Icon name="download" />
            Download the original
          </button>
          {others.map((action) => (
            <button key={action.label} type="button" role="menuitem" onClick={() => choose(() => action.onClick(item))}>
              <Icon name={action.icon} />
              {action.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
