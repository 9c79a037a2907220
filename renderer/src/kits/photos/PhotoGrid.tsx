import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { Node } from '../../api/types.ts';
import { lastScrollY } from '../../ui/scrollPosition.ts';
import { columnsFor, GAP } from './grid.ts';
import type { Selection } from './selection.ts';
import { noteScrolling } from './thumbs.ts';
import { Tile } from './Tile.tsx';
import { useOffsetTop, useWidth } from './useListPlacement.ts';

export interface PhotoGridProps {
  /** What the list holds, as its summary counts it: the grid is laid out before the items are listed. */
  total: number;
  /** The items loaded so far, in order. */
  items: readonly Node[];
  /** More to list after those. */
  hasMore: boolean;
  loadMore: () => void;
  selection: Selection;
  onOpen: (node: Node) => void;
  /** The photo last seen full screen: brought into view and focused when the viewer closes. */
  reveal: string | null;
  /** The region's name ("Photos and videos of the album, oldest first"). */
  label: string;
  /** The list's class, for its page's styles. */
  className?: string | undefined;
}

/**
 * A list of photos (an album's, a person's) as the timeline shows them (its tiles, its sizes), in rows of a window
 * virtualizer: only the rows near the screen exist, and pages of items are listed as the rows
 * that need them come near, so a list of 5,000 photos costs what a screenful does.
 */
export function PhotoGrid({ total, items, hasMore, loadMore, selection, onOpen, reveal, label, className }: PhotoGridProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const width = useWidth(listRef);
  const columns = columnsFor(width);
  const tile = width > 0 ? (width - GAP * (columns - 1)) / columns : 0;
  // Until the last page is in, the summary says how many; then the list itself does.
  const count = hasMore ? Math.max(total, items.length) : items.length;
  const rows = Math.ceil(count / columns);
  const scrollMargin = useOffsetTop(listRef, width);
  const virtualizer = useWindowVirtualizer({
    count: width > 0 ? rows : 0,
    estimateSize: () => tile + GAP,
    overscan: 4,
    // Where the page was last scrolled, not window.scrollY: read during this first render, that
    // would lay out the page just changed (see ui/scrollPosition.ts).
    initialOffset: lastScrollY,
    scrollMargin,
  });
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, tile]);

  useEffect(() => {
    window.addEventListener('scroll', noteScrolling, { passive: true });
    return () => window.removeEventListener('scroll', noteScrolling);
  }, []);

  const rowsInView = virtualizer.getVirtualItems();
  const lastNeeded = ((rowsInView[rowsInView.length - 1]?.index ?? 0) + 1) * columns;
  useEffect(() => {
    if (hasMore && items.length < lastNeeded) loadMore();
  }, [hasMore, items.length, lastNeeded, loadMore]);

  useEffect(() => {
    if (reveal === null || columns === 0) return;
    const position = items.findIndex((item) => item.id === reveal);
    if (position < 0) return;
    const tileOf = () => document.querySelector<HTMLElement>(`.tile[data-node-id="${CSS.escape(reveal)}"]`);
    const box = tileOf()?.getBoundingClientRect();
    if (!box || box.top < 0 || box.bottom > window.innerHeight)
      virtualizer.scrollToIndex(Math.floor(position / columns), { align: 'center' });
    const frame = requestAnimationFrame(() => tileOf()?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
    // Only when a photo is handed back, not on every change of the list after.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal]);

  return (
    <div ref={listRef} className={['photo-grid', className].filter(Boolean).join(' ')} role="region" aria-label={label}>
      <div className="photo-grid-rows" style={{ height: virtualizer.getTotalSize() }}>
        {rowsInView.map((row) => {
          const cells = [];
          for (let column = 0; column < columns; column++) {
            const index = row.index * columns + column;
            if (index >= count) break;
            const node = items[index];
            cells.push(
              node ? (
                <Tile key={node.id} node={node} size={tile} selection={selection} onOpen={onOpen} />
              ) : (
                <div key={`p${index}`} className="tile tile-placeholder" style={{ width: tile, height: tile }} />
              ),
            );
          }
          return (
            <div
              key={row.key}
              className="tile-row photo-grid-row"
              style={{ height: tile, transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)` }}
            >
              {cells}
            </div>
          );
        })}
      </div>
    </div>
  );
}
