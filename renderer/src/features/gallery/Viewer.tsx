import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { downloadUrl, startDownload } from '../../api/downloads.ts';
import type { Node } from '../../api/types.ts';
import { useThumbnail } from '../../api/thumbnails.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { formatDate, formatTaken } from '../../ui/format.ts';
import { DetailsDialog, useNodeAction } from '../files/index.ts';
import { ShareDialog } from '../share/index.ts';
import { useMonthItems, type Month } from './queries.ts';

interface Position {
  month: Month;
  /** -1: the month's last item (arriving from the next month). */
  index: number;
}

/** Full screen: swipe or arrow keys between photos, pinch or double-tap to zoom, video with seeking. */
export function Viewer({ months, start, onClose }: { months: Month[]; start: Position; onClose: () => void }) {
  const [at, setAt] = useState<Position>(start);
  const items = useMonthItems(at.month, true);
  const list = items.data ?? [];
  const index = at.index < 0 ? list.length - 1 : at.index;
  const node = list[index];
  const monthIndex = months.findIndex((m) => m.month === at.month.month);
  const [panel, setPanel] = useState<'info' | 'trash' | 'share' | null>(null);
  const trash = useNodeAction();
  const dialog = useRef<HTMLDialogElement>(null);

  const go = (step: 1 | -1) => {
    const next = index + step;
    if (next >= 0 && next < list.length) setAt({ month: at.month, index: next });
    else if (step === 1 && months[monthIndex + 1]) setAt({ month: months[monthIndex + 1]!, index: 0 });
    else if (step === -1 && months[monthIndex - 1]) setAt({ month: months[monthIndex - 1]!, index: -1 });
  };

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const hasNext = index < list.length - 1 || monthIndex < months.length - 1;
  const hasPrevious = index > 0 || monthIndex > 0;

  return (
    <dialog
      ref={dialog}
      className="viewer"
      aria-label={node ? node.name : 'Photo'}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onKeyDown={(event) => {
        if (event.key === 'ArrowRight') go(1);
        else if (event.key === 'ArrowLeft') go(-1);
      }}
    >
      <header className="viewer-bar">
        <IconButton icon="back" label="Close" onClick={onClose} />
        <div className="viewer-title">
          <span>{node?.name}</span>
          {node && <span className="viewer-date">{node.taken_at ? formatTaken(node.taken_at) : formatDate(node.created_at)}</span>}
        </div>
        {node && (
          <>
            <IconButton icon="info" label="Info" onClick={() => setPanel('info')} />
            <IconButton icon="download" label="Download" onClick={() => void startDownload(node)} />
            <IconButton icon="share" label="Share" onClick={() => setPanel('share')} />
            <IconButton icon="trash" label="Move to trash" onClick={() => setPanel('trash')} />
          </>
        )}
      </header>
      {node ? <Stage key={node.id} node={node} onSwipe={go} /> : <div className="viewer-stage" />}
      {hasPrevious && <IconButton icon="back" label="Previous" className="viewer-prev" onClick={() => go(-1)} />}
      {hasNext && <IconButton icon="chevron" label="Next" className="viewer-next" onClick={() => go(1)} />}
      {panel === 'info' && node && <DetailsDialog node={node} onClose={() => setPanel(null)} />}
      {panel === 'share' && node && <ShareDialog node={node} onClose={() => setPanel(null)} />}
      {panel === 'trash' && node && (
        <ConfirmDialog
          title={`Move “${node.name}” to the trash?`}
          message="You can restore it from the trash until it is emptied."
          confirm="Move to trash"
          danger
          busy={trash.isPending}
          onClose={() => setPanel(null)}
          onConfirm={() =>
            trash.mutate(
              { nodes: [node], action: { kind: 'trash' } },
              {
                onSuccess: () => {
                  setPanel(null);
                  if (list.length <= 1) onClose();
                },
              },
            )
          }
        />
      )}
    </dialog>
  );
}

/** One photo or video, with its gestures. */
function Stage({ node, onSwipe }: { node: Node; onSwipe: (step: 1 | -1) => void }) {
  const video = node.mime_type?.startsWith('video/') ?? false;
  const preview = useThumbnail(node, 1024);
  const [zoom, setZoom] = useState(1);
  const [offset, setOffset] = useState({ x: 0, y: 0 });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ startX: number; startY: number; startZoom: number; startDistance: number; startOffset: { x: number; y: number } } | null>(null);
  const lastTap = useRef(0);
  // The original is fetched only once the person zooms in: the 1024 px preview is enough to look.
  const original = zoom > 1 && !video ? downloadUrl(node, true) : null;

  if (video) return <VideoStage node={node} poster={preview} onSwipe={onSwipe} />;

  const distance = () => {
    const [a, b] = [...pointers.current.values()];
    return a && b ? Math.hypot(a.x - b.x, a.y - b.y) : 0;
  };
  const down = (event: ReactPointerEvent) => {
    event.currentTarget.setPointerCapture(event.pointerId);
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    gesture.current = { startX: event.clientX, startY: event.clientY, startZoom: zoom, startDistance: distance(), startOffset: offset };
  };
  const move = (event: ReactPointerEvent) => {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const g = gesture.current;
    if (pointers.current.size === 2 && g.startDistance > 0) {
      setZoom(Math.max(1, Math.min(5, (g.startZoom * distance()) / g.startDistance)));
    } else if (zoom > 1) {
      setOffset({ x: g.startOffset.x + event.clientX - g.startX, y: g.startOffset.y + event.clientY - g.startY });
    }
  };
  const up = (event: ReactPointerEvent) => {
    const g = gesture.current;
    const wasPinch = pointers.current.size > 1;
    pointers.current.delete(event.pointerId);
    if (!g || wasPinch || pointers.current.size > 0) return;
    const dx = event.clientX - g.startX;
    const dy = event.clientY - g.startY;
    if (zoom === 1 && Math.abs(dx) > 60 && Math.abs(dx) > Math.abs(dy)) {
      onSwipe(dx < 0 ? 1 : -1);
    } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
      const now = Date.now();
      if (now - lastTap.current < 300) {
        setZoom(zoom > 1 ? 1 : 2.5);
        setOffset({ x: 0, y: 0 });
      }
      lastTap.current = now;
    }
    gesture.current = null;
  };

  return (
    <div
      className="viewer-stage"
      data-testid="viewer-stage"
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onWheel={(event) => {
        setZoom((z) => Math.max(1, Math.min(5, z * (event.deltaY < 0 ? 1.2 : 1 / 1.2))));
        if (zoom <= 1) setOffset({ x: 0, y: 0 });
      }}
    >
      {preview || original ? (
        <img
          className="viewer-image"
          src={original ?? preview!}
          alt={node.name}
          draggable={false}
          style={{ transform: `translate(${offset.x}px, ${offset.y}px) scale(${zoom})` }}
        />
      ) : (
        <div className="viewer-missing">
          <Icon name="photo" />
          <p>No preview yet.</p>
        </div>
      )}
    </div>
  );
}

/**
 * A video played from the server with Range requests (seeking fetches only what it needs).
 * When the browser cannot decode it (an iPhone's HEVC .mov in most browsers), its poster and a
 * download button instead of a black box.
 */
function VideoStage({ node, poster, onSwipe }: { node: Node; poster: string | null; onSwipe: (step: 1 | -1) => void }) {
  const [unplayable, setUnplayable] = useState(false);
  const start = useRef<number | null>(null);
  if (unplayable) {
    return (
      <div className="viewer-stage">
        <div className="cant-play">
          {poster && <img src={poster} alt="" />}
          <p>
            <strong>This video can't play here.</strong> Its format (often an iPhone's HEVC) is not one this browser knows. Download it to watch it on this device.
          </p>
          <Button variant="primary" icon="download" onClick={() => void startDownload(node)}>
            Download
          </Button>
        </div>
      </div>
    );
  }
  return (
    <div
      className="viewer-stage"
      onPointerDown={(e) => (start.current = e.clientX)}
      onPointerUp={(e) => {
        if (start.current !== null && Math.abs(e.clientX - start.current) > 80) onSwipe(e.clientX < start.current ? 1 : -1);
        start.current = null;
      }}
    >
      <video
        className="viewer-video"
        controls
        playsInline
        preload="metadata"
        poster={poster ?? undefined}
        src={downloadUrl(node, true)}
        aria-label={node.name}
        onError={() => setUnplayable(true)}
        onLoadedMetadata={(event) => {
          // Sound without a picture: the picture's codec is not supported.
          if (event.currentTarget.videoWidth === 0 && (node.image_width ?? 1) > 0) setUnplayable(true);
        }}
      />
    </div>
  );
}
