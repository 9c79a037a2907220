import { useWindowVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useQueryClient } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import type { Node } from '../../api/types.ts';
import { lastScrollY } from '../../ui/scrollPosition.ts';
import { plural } from '../../ui/format.ts';
import { Icon } from '../../ui/Icon.tsx';
import { columnsFor, GAP, monthOfNode, noteScrolling, Tile, useOffsetTop, useWidth, type Selection } from '../../kits/photos/index.ts';
import { buildTimeline, HEADER_HEIGHT, monthLabel, type TimelineRow } from './layout.ts';
import { usePinnedMonth } from './usePinnedMonth.ts';
import type { GalleryMonth } from './queries.ts';
import { useMonthItems } from './queries.ts';
import { Scrubber } from './Scrubber.tsx';
import { findLoaded, loadedItems } from './load.ts';

export interface TimelineProps {
  months: GalleryMonth[];
  selection: Selection;
  onOpen: (node: Node) => void;
  /** Select every item of a month (starting selection mode), or unselect them. */
  onSelectMonth: (month: GalleryMonth, select: boolean) => void;
  /** The photo last seen full screen: back on the timeline, it is brought into view and focused. */
  reveal: string | null;
  /** A search: the timeline of what it finds ('' is the whole gallery). */
  q?: string;
  /** What the list of photos is called, for those who hear the screen. */
  label?: string;
  /** Whose a photo is, when it is someone else's (the family timeline); stable, or every row redraws. */
  whose?: ((node: Node) => string | undefined) | undefined;
}

/**
 * The whole gallery as one virtualized list of rows (a month's heading, then lines of tiles),
 * laid out from the month counts alone; only the rows near the screen exist in the DOM, and
 * only their months are listed. Rows are placed by the virtualizer writing their transform
 * directly, so scrolling re-renders React only when the rows in view change.
 */
export function Timeline({
  months,
  selection,
  onOpen,
  onSelectMonth,
  reveal,
  q = '',
  label = 'Photos and videos, newest first',
  whose,
}: TimelineProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const width = useWidth(listRef);
  const columns = columnsFor(width);
  const tile = width > 0 ? (width - GAP * (columns - 1)) / columns : 0;
  const layout = useMemo(() => buildTimeline(months, columns), [months, columns]);
  const scrollMargin = useOffsetTop(listRef, width);

  // Stable functions: the virtualizer recomputes the positions of every row when one changes.
  const sizeOf = useCallback((index: number) => (layout.rows[index]?.kind === 'header' ? HEADER_HEIGHT : tile + GAP), [layout, tile]);
  const measure = useCallback((element: Element) => sizeOf(Number(element.getAttribute('data-index'))), [sizeOf]);
  const keyOf = useCallback((index: number) => rowKey(layout.rows[index]!), [layout]);
  const virtualizer = useWindowVirtualizer({
    // Nothing until the width is known: at width 0 every month's first row would be "on screen".
    count: width > 0 ? layout.rows.length : 0,
    estimateSize: sizeOf,
    // The sizes are known exactly: a row is never measured, so nothing shifts as rows mount.
    measureElement: measure,
    overscan: 4,
    // Where the page was last scrolled, not window.scrollY: read during this first render, that
    // would lay out the page just changed (see ui/scrollPosition.ts).
    initialOffset: lastScrollY,
    scrollMargin,
    // A jump lands below the selection bar while it holds the top of the screen.
    scrollPaddingStart: selection.active ? HEADER_HEIGHT : 0,
    directDomUpdates: true,
    getItemKey: keyOf,
  });
  // The sizes are exact; a new width or a new layout changes them all at once.
  useLayoutEffect(() => virtualizer.measure(), [virtualizer, tile, layout]);

  useEffect(() => {
    window.addEventListener('scroll', noteScrolling, { passive: true });
    return () => window.removeEventListener('scroll', noteScrolling);
  }, []);

  const queryClient = useQueryClient();
  useEffect(() => {
    if (reveal === null) return;
    const node = findLoaded(queryClient, reveal);
    if (!node) return;
    const month = monthOfNode(node);
    const monthIndex = layout.months.findIndex((m) => m.month === month);
    const position = loadedItems(queryClient, month, q).findIndex((item) => item.id === reveal);
    if (monthIndex < 0 || position < 0) return;
    const tileOf = () => document.querySelector<HTMLElement>(`.tile[data-node-id="${CSS.escape(reveal)}"]`);
    const box = tileOf()?.getBoundingClientRect();
    if (!box || box.top < HEADER_HEIGHT || box.bottom > window.innerHeight) {
      virtualizer.scrollToIndex(layout.headerRows[monthIndex]! + 1 + Math.floor(position / columns), { align: 'center' });
    }
    const frame = requestAnimationFrame(() => tileOf()?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
    // Only when a photo is handed back, not on every layout change after.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal]);

  const items = virtualizer.getVirtualItems();
  // The virtualizer's sizes change with the width and the layout: the pinned month is read after them.
  const pinned = usePinnedMonth(virtualizer, layout, selection.active ? 2 * HEADER_HEIGHT : HEADER_HEIGHT);
  const currentMonth = Math.min(pinned.month, Math.max(0, layout.months.length - 1));

  return (
    <div className="timeline">
      <div ref={listRef} className="timeline-list" aria-label={label} role="region">
        {/* While the month's own heading is on screen it speaks for itself. */}
        {layout.months.length > 0 && pinned.shown && (
          <div className="month-sticky" aria-hidden="true">
            {monthLabel(layout.months[currentMonth]!.month)}
          </div>
        )}
        <Rows
          items={items}
          rows={layout.rows}
          containerRef={virtualizer.containerRef}
          measureElement={virtualizer.measureElement}
          render={(row) =>
            row.kind === 'header' ? (
              <MonthHeader row={row} selection={selection} onSelectMonth={onSelectMonth} months={layout.months} />
            ) : (
              <TileRow row={row} tile={tile} selection={selection} onOpen={onOpen} q={q} whose={whose} />
            )
          }
        />
      </div>
      <Scrubber layout={layout} virtualizer={virtualizer} current={currentMonth} />
    </div>
  );
}

/** The rows in view, each placed by the virtualizer (it writes their transform itself). */
function Rows({
  items,
  rows,
  containerRef,
  measureElement,
  render,
}: {
  items: VirtualItem[];
  rows: TimelineRow[];
  containerRef: (node: HTMLElement | null) => void;
  measureElement: (node: Element | null) => void;
  render: (row: TimelineRow) => ReactNode;
}) {
  return (
    <div ref={containerRef} className="timeline-rows">
      {items.map((item) => (
        <div key={item.key} ref={measureElement} data-index={item.index} data-month={rows[item.index]!.month} className="timeline-row">
          {render(rows[item.index]!)}
        </div>
      ))}
    </div>
  );
}

function rowKey(row: TimelineRow): string {
  return row.kind === 'header' ? `h${row.month}` : `t${row.month}:${row.start}`;
}

const MonthHeader = memo(function MonthHeader({
  row,
  selection,
  onSelectMonth,
  months,
}: {
  row: Extract<TimelineRow, { kind: 'header' }>;
  selection: Selection;
  onSelectMonth: TimelineProps['onSelectMonth'];
  months: GalleryMonth[];
}) {
  const label = monthLabel(row.month);
  const allSelected = selection.active && selection.countIn(row.month) === row.count;
  const parts = [row.photos > 0 && plural(row.photos, 'photo'), row.videos > 0 && plural(row.videos, 'video')].filter(Boolean).join(', ');
  return (
    <div className="month-header">
      <h2>
        {label}
        <span className="month-count">{parts}</span>
      </h2>
      {/* Always there: a whole month is selected from its heading, selecting or not. */}
      <button
        type="button"
        className="btn btn-quiet month-select"
        aria-pressed={selection.active ? allSelected : undefined}
        aria-label={allSelected ? `Unselect ${label}` : `Select all of ${label}`}
        onClick={() =>
          onSelectMonth(
            months.find((m) => m.month === row.month)!,
            !allSelected,
          )
        }
      >
        <Icon name="check" />
        {allSelected ? 'Unselect' : selection.active ? 'Select all' : 'Select'}
      </button>
    </div>
  );
});

const TileRow = memo(function TileRow({
  row,
  tile,
  selection,
  onOpen,
  q,
  whose,
}: {
  row: Extract<TimelineRow, { kind: 'tiles' }>;
  tile: number;
  selection: Selection;
  onOpen: (node: Node) => void;
  q: string;
  whose: TimelineProps['whose'];
}) {
  const items = useMonthItems(row.month, row.start + row.count, q);
  const cells = [];
  for (let i = 0; i < row.count; i++) {
    const node = items?.[row.start + i];
    cells.push(
      node ? (
        <Tile key={node.id} node={node} size={tile} selection={selection} onOpen={onOpen} owner={whose?.(node)} />
      ) : (
        <div key={`p${i}`} className="tile tile-placeholder" style={{ width: tile, height: tile }} />
      ),
    );
  }
  return (
    <div className="tile-row" style={{ height: tile }}>
      {cells}
    </div>
  );
});
