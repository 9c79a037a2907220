import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { Node } from '../../api/types.ts';
import { useThumbnail } from '../../api/thumbnails.ts';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { plural } from '../../ui/format.ts';
import { UploadButton } from '../upload/index.ts';
import { cellPosition, layoutGrid, monthLabel, type Grid, type Section } from './layout.ts';
import { useMonthItems, useMonths, type Month } from './queries.ts';
import { Scrubber } from './Scrubber.tsx';
import { Viewer } from './Viewer.tsx';
import './gallery.css';

/** Rendered beyond the screen's edges, so a fling shows pictures instead of blanks. */
const OVERSCAN_PX = 800;

/**
 * Every photo and video, newest taken first, in month groups. The page is laid out from the
 * months' counts; only the months near the screen fetch their items, and only the rows on
 * screen exist in the DOM, so 50,000 photos cost what one screenful does.
 */
export function GalleryPage() {
  const months = useMonths();
  const container = useRef<HTMLDivElement>(null);
  const width = useWidth(container);
  const viewport = useViewport(container);
  const [viewing, setViewing] = useState<{ month: Month; index: number } | null>(null);
  const grid = layoutGrid(months.data ?? [], width);
  const visible = grid.sections.filter((s) => s.top < viewport.bottom + OVERSCAN_PX && s.top + s.height > viewport.top - OVERSCAN_PX);
  const total = (months.data ?? []).reduce((sum, m) => sum + m.count, 0);

  return (
    <>
      <div className="topbar">
        <h1>Photos</h1>
        <UploadButton parentId={null} accept="image/*,video/*" />
      </div>
      {months.isPending && <Spinner label="Loading photos" />}
      {months.isError && <Notice tone="error">{months.error.message}</Notice>}
      {months.isSuccess && total === 0 && (
        <div className="empty">
          <p>
            <strong>No photos or videos yet.</strong>
          </p>
          <p className="muted">Upload them from this phone with the Upload button; they appear here by the date they were taken.</p>
        </div>
      )}
      {total > 0 && <p className="muted gallery-count">{plural(total, 'photo and video', 'photos and videos')}</p>}
      <div ref={container} className="gallery" style={{ height: grid.height }}>
        {width > 0 &&
          visible.map((section) => (
            <MonthSection key={section.month.month} section={section} grid={grid} viewport={viewport} onOpen={(index) => setViewing({ month: section.month, index })} />
          ))}
      </div>
      {grid.sections.length > 1 && <Scrubber grid={grid} container={container} viewportTop={viewport.top} />}
      {viewing && <Viewer months={months.data ?? []} start={viewing} onClose={() => setViewing(null)} />}
    </>
  );
}

function MonthSection({ section, grid, viewport, onOpen }: { section: Section; grid: Grid; viewport: { top: number; bottom: number }; onOpen: (index: number) => void }) {
  const items = useMonthItems(section.month, true);
  const rowHeight = grid.cell + 4;
  const firstRow = Math.max(0, Math.floor((viewport.top - OVERSCAN_PX / 2 - section.top - 48) / rowHeight));
  const lastRow = Math.min(section.rows - 1, Math.ceil((viewport.bottom + OVERSCAN_PX / 2 - section.top - 48) / rowHeight));
  const cells: number[] = [];
  for (let i = firstRow * grid.columns; i <= Math.min(section.month.count - 1, (lastRow + 1) * grid.columns - 1); i++) cells.push(i);
  const label = monthLabel(section.month);
  return (
    <section className="month" style={{ top: section.top, height: section.height }} aria-label={label}>
      <h2 className="month-header">
        {label} <span className="muted">· {section.month.count.toLocaleString()}</span>
      </h2>
      {cells.map((index) => {
        const node = items.data?.[index];
        const { left, top } = cellPosition(grid, index);
        return (
          <div key={index} className="cell" style={{ left, top, width: grid.cell, height: grid.cell }}>
            {node ? <Thumb node={node} onOpen={() => onOpen(index)} /> : <div className="cell-placeholder" />}
          </div>
        );
      })}
    </section>
  );
}

function Thumb({ node, onOpen }: { node: Node; onOpen: () => void }) {
  const url = useThumbnail(node);
  const video = node.mime_type?.startsWith('video/');
  return (
    <button type="button" className="thumb" onClick={onOpen} aria-label={`${video ? 'Video' : 'Photo'} ${node.name}`}>
      {url ? <img src={url} alt="" decoding="async" draggable={false} /> : <span className="cell-placeholder" />}
      {video && (
        <span className="thumb-badge">
          <Icon name="play" />
        </span>
      )}
    </button>
  );
}

function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The window's scroll range in the gallery's own coordinates, updated once per frame at most. */
function useViewport(ref: RefObject<HTMLElement | null>): { top: number; bottom: number } {
  const [viewport, setViewport] = useState({ top: 0, bottom: typeof window === 'undefined' ? 0 : window.innerHeight });
  useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      const element = ref.current;
      if (!element) return;
      const top = -element.getBoundingClientRect().top;
      setViewport((prev) => (Math.abs(prev.top - top) < 1 && prev.bottom - prev.top === window.innerHeight ? prev : { top, bottom: top + window.innerHeight }));
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) cancelAnimationFrame(frame);
    };
  }, [ref]);
  return viewport;
}
