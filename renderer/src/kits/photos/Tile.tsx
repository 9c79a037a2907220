import { memo, useRef } from 'react';
import { thumbnailPath } from '../../api/thumbnails.ts';
import type { Node } from '../../api/types.ts';
import { Icon } from '../../ui/Icon.tsx';
import { useGalleryThumbnail } from './thumbs.ts';
import type { Selection } from './selection.ts';
import { describeTaken, formatLength } from '../viewer/index.ts';
// The tiles are drawn wherever they are used (the timeline, an album).
import './photos.css';

const LONG_PRESS_MS = 450;

/**
 * One photo or video of the timeline: a tap opens it (or, while selecting, selects it); a long
 * press on a touch screen starts selecting, as in a phone's own gallery.
 */
export const Tile = memo(function Tile({
  node,
  size,
  selection,
  onOpen,
  owner,
}: {
  node: Node;
  size: number;
  selection: Selection;
  onOpen: (node: Node) => void;
  /** Whose it is, when it is someone else's (the family timeline): their initial on the tile, their name in its label. */
  owner?: string | undefined;
}) {
  const url = useGalleryThumbnail(node.has_thumbnail ? thumbnailPath(node) : null);
  const video = node.mime_type?.startsWith('video/') ?? false;
  const selected = selection.has(node.id);
  const press = useRef<{ timer: ReturnType<typeof setTimeout>; x: number; y: number } | null>(null);
  const pressed = useRef(false);
  const cancelPress = () => {
    if (press.current) clearTimeout(press.current.timer);
    press.current = null;
  };
  const length = video && node.duration_ms !== undefined ? formatLength(node.duration_ms) : null;
  const label = `${video ? 'Video' : 'Photo'} ${node.name}, ${owner ? `shared by ${owner}, ` : ''}${length ? `${length}, ` : ''}${describeTaken(node)}${node.starred ? ', favourite' : ''}`;

  return (
    <button
      type="button"
      className={['tile', selected && 'tile-selected', selection.active && 'tile-selecting'].filter(Boolean).join(' ')}
      style={{ width: size, height: size }}
      aria-label={label}
      aria-pressed={selection.active ? selected : undefined}
      data-node-id={node.id}
      onClick={() => {
        if (pressed.current) {
          pressed.current = false;
          return;
        }
        if (selection.active) selection.toggle(node);
        else onOpen(node);
      }}
      onPointerDown={(event) => {
        if (event.pointerType !== 'touch' || selection.active) return;
        pressed.current = false;
        const timer = setTimeout(() => {
          pressed.current = true;
          press.current = null;
          navigator.vibrate?.(20);
          selection.start(node);
        }, LONG_PRESS_MS);
        press.current = { timer, x: event.clientX, y: event.clientY };
      }}
      onPointerMove={(event) => {
        const start = press.current;
        if (start && Math.hypot(event.clientX - start.x, event.clientY - start.y) > 10) cancelPress();
      }}
      onPointerUp={cancelPress}
      onPointerCancel={cancelPress}
      // A long press must not open the browser's image menu.
      onContextMenu={(event) => event.preventDefault()}
    >
      {/* Until its picture arrives a tile is its background colour: no icon to draw for every tile of a fling. */}
      {url && <img src={url} alt="" decoding="async" draggable={false} />}
      {node.starred && (
        <span className="tile-favourite" aria-hidden="true">
          <Icon name="star" />
        </span>
      )}
      {video && url && (
        <span className="tile-badge" aria-hidden="true">
          {length ?? <Icon name="play" />}
        </span>
      )}
      {owner && (
        <span className="tile-owner" aria-hidden="true" title={`Shared by ${owner}`}>
          {[...owner.trim()][0]?.toUpperCase()}
        </span>
      )}
      {selection.active ? (
        <span className="tile-check" aria-hidden="true">
          {selected && <Icon name="check" />}
        </span>
      ) : (
        <span
          className="tile-hover-select"
          aria-hidden="true"
          onClick={(event) => {
            event.stopPropagation();
            selection.start(node);
          }}
        />
      )}
    </button>
  );
});
