import { useRef, useState, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';
import { monthLabel, type Grid } from './layout.ts';

/**
 * The date scrubber: drag along the right edge to travel through years at once; the label
 * says where you are. A slider for keyboards and screen readers: arrows move a month.
 */
export function Scrubber({ grid, container, viewportTop }: { grid: Grid; container: RefObject<HTMLElement | null>; viewportTop: number }) {
  const track = useRef<HTMLDivElement>(null);
  const [dragging, setDragging] = useState(false);
  const current = Math.max(0, grid.sections.findLastIndex((s) => s.top <= viewportTop + 1));
  const section = grid.sections[current]!;

  const scrollToOffset = (offset: number) => {
    const top = (container.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
    window.scrollTo({ top: top + offset });
  };
  const jumpTo = (index: number) => {
    const target = grid.sections[Math.max(0, Math.min(grid.sections.length - 1, index))];
    if (target) scrollToOffset(target.top);
  };
  const fromPointer = (event: PointerEvent) => {
    const box = track.current!.getBoundingClientRect();
    const fraction = Math.max(0, Math.min(1, (event.clientY - box.top) / box.height));
    scrollToOffset(fraction * grid.height);
  };
  const years = grid.sections.filter((s, i) => i === 0 || s.month.month.slice(0, 4) !== grid.sections[i - 1]!.month.month.slice(0, 4));

  return (
    <div
      ref={track}
      className={dragging ? 'scrubber is-dragging' : 'scrubber'}
      role="slider"
      tabIndex={0}
      aria-label="Jump to a month"
      aria-valuemin={0}
      aria-valuemax={grid.sections.length - 1}
      aria-valuenow={current}
      aria-valuetext={monthLabel(section.month)}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'ArrowDown' || event.key === 'PageDown') jumpTo(current + 1);
        else if (event.key === 'ArrowUp' || event.key === 'PageUp') jumpTo(current - 1);
        else if (event.key === 'Home') jumpTo(0);
        else if (event.key === 'End') jumpTo(grid.sections.length - 1);
        else return;
        event.preventDefault();
      }}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        setDragging(true);
        fromPointer(event);
      }}
      onPointerMove={(event) => dragging && fromPointer(event)}
      onPointerUp={() => setDragging(false)}
      onPointerCancel={() => setDragging(false)}
    >
      {years.map((s) => (
        <span key={s.month.month} className="scrubber-year" style={{ top: `${(s.top / grid.height) * 100}%` }} aria-hidden="true">
          {s.month.month.slice(0, 4)}
        </span>
      ))}
      <span className="scrubber-thumb" style={{ top: `${(section.top / Math.max(1, grid.height)) * 100}%` }} aria-hidden="true">
        {dragging && <span className="scrubber-label">{monthLabel(section.month, true)}</span>}
      </span>
    </div>
  );
}
