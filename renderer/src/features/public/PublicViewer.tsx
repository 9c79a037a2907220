import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { formatBytes } from '../../ui/format.ts';
import { mediaKind, type SharedNode } from './api.ts';

/** Where the viewer finds a node's pictures and bytes; null when the link does not allow it. */
export interface ViewerSources {
  preview: (node: SharedNode) => string | null;
  media: (node: SharedNode) => string | null;
  download: (node: SharedNode) => string | null;
}

/**
 * Full screen over the page, on the native <dialog> (focus kept inside, Escape closes): photos
 * at the 1024 px preview, videos played from the link when downloads are allowed, previous and
 * next by button, arrow keys or a swipe. The gallery's viewer replaces this once it serves
 * a link's items too.
 */
export function PublicViewer({
  items,
  index,
  sources,
  downloadsOff,
  onIndex,
  onClose,
}: {
  items: SharedNode[];
  index: number;
  sources: ViewerSources;
  downloadsOff: boolean;
  onIndex: (index: number) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const swipeFrom = useRef<{ x: number; y: number } | null>(null);
  const node = items[index];
  const hasPrev = index > 0;
  const hasNext = index < items.length - 1;

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  if (!node) return null;
  const go = (step: number) => {
    const next = index + step;
    if (next >= 0 && next < items.length) onIndex(next);
  };
  const download = sources.download(node);

  return (
    <dialog
      ref={ref}
      className="link-viewer"
      aria-label={node.name}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowLeft') go(-1);
        if (event.key === 'ArrowRight') go(1);
      }}
    >
      <div className="link-viewer-bar">
        <IconButton icon="back" label="Close" onClick={onClose} />
        <div className="link-viewer-title">
          <span className="link-viewer-name">{node.name}</span>
          <span className="link-viewer-count">
            {index + 1} of {items.length}
          </span>
        </div>
        {download && (
          <a className="btn btn-icon btn-quiet" href={download} download={node.name} aria-label={`Download ${node.name}`} title="Download">
            <Icon name="download" />
          </a>
        )}
      </div>
      <div
        className="link-viewer-stage"
        onPointerDown={(event: PointerEvent) => {
          swipeFrom.current = { x: event.clientX, y: event.clientY };
        }}
        onPointerUp={(event: PointerEvent) => {
          const from = swipeFrom.current;
          swipeFrom.current = null;
          if (!from) return;
          const dx = event.clientX - from.x;
          if (Math.abs(dx) > 50 && Math.abs(dx) > Math.abs(event.clientY - from.y)) go(dx < 0 ? 1 : -1);
        }}
      >
        <ViewerContent key={node.id} node={node} sources={sources} downloadsOff={downloadsOff} />
      </div>
      {hasPrev && <IconButton className="link-viewer-prev" icon="chevronLeft" label="Previous" onClick={() => go(-1)} />}
      {hasNext && <IconButton className="link-viewer-next" icon="chevron" label="Next" onClick={() => go(1)} />}
    </dialog>
  );
}

function ViewerContent({ node, sources, downloadsOff }: { node: SharedNode; sources: ViewerSources; downloadsOff: boolean }) {
  const [failed, setFailed] = useState(false);
  const kind = mediaKind(node);
  const preview = sources.preview(node);
  const media = sources.media(node);
  const download = sources.download(node);

  if (kind === 'video' && media && !failed) {
    return (
      <video className="link-viewer-media" controls playsInline preload="metadata" poster={preview ?? undefined} src={media} onError={() => setFailed(true)} />
    );
  }
  if (kind === 'image' && preview && !failed) {
    return <img className="link-viewer-media" src={preview} alt={node.name} onError={() => setFailed(true)} />;
  }
  // Nothing this browser can show: say why, and offer the file when the link allows it.
  const why =
    kind === 'video'
      ? downloadsOff
        ? 'The person who shared this turned off downloads, so the video cannot be played here.'
        : 'This video cannot be played in this browser. Download it to watch it.'
      : downloadsOff
        ? 'There is no preview of this file, and downloads are turned off for this link.'
        : 'There is no preview of this file.';
  return (
    <div className="link-viewer-none">
      {preview && kind === 'video' ? <img className="link-viewer-poster" src={preview} alt="" /> : <Icon name={kind === 'video' ? 'video' : 'file'} />}
      <p>{why}</p>
      <p className="muted">{formatBytes(node.size)}</p>
      {download && (
        <a className="btn btn-primary" href={download} download={node.name}>
          <Icon name="download" />
          Download
        </a>
      )}
    </div>
  );
}
