import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { monthIndexOfRow, monthLabel, type Timeline } from './layout.ts';

interface ScrubberProps {
  layout: Timeline;
  virtualizer: Virtualizer<Window, Element>;
  /** The month at the top of the screen. */
  current: number;
}

/**
 * How far the page can scroll through the list: from the list's top at the screen's top to the
 * end of the page. Computed from the virtualizer's sizes and the space below the list (read from
 * the page once per layout, and the screen's height on resize), never from the page while it
 * scrolls: reading scrollHeight or innerHeight then forces a layout in every frame (1.4 s of the
 * main thread over a scroll through 20,000 photos).
 */
function scrollSpan(virtualizer: Virtualizer<Window, Element>, below: number, screen: number): { start: number; span: number } {
  const start = virtualizer.options.scrollMargin;
  const end = virtualizer.getTotalSize() + below - screen;
  return { start, span: Math.max(1, end - start) };
}

/**
 * The scrubber's track and thumb: the track's height as it changes, and the thumb placed at the
 * page's scroll in every frame it moves, straight on the element, without a render.
 */
function useScrubberTrack(virtualizer: Virtualizer<Window, Element>, layout: Timeline) {
  const track = useRef<HTMLDivElement | null>(null);
  // The track exists only from the second month on: a timeline that started empty gets it later,
  // and its size is observed from then (an observer set at mount watched nothing, for good).
  const [trackElement, setTrackElement] = useState<HTMLDivElement | null>(null);
  const trackRef = useCallback((element: HTMLDivElement | null) => {
    track.current = element;
    setTrackElement(element);
  }, []);
  const thumb = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const below = useRef(0);
  const screen = useRef(0);

  // The space between the list's end and the page's end (the bottom bar's room, the padding).
  // Read after the frame is drawn, when the layout is already done: read while committing, it
  // forced the whole first timeline's layout inside its render task.
  useEffect(() => {
    below.current = Math.max(0, document.documentElement.scrollHeight - virtualizer.getTotalSize());
    screen.current = window.innerHeight;
  }, [virtualizer, layout, height]);

  // The thumb follows the page's scroll without re-rendering anything.
  useEffect(() => {
    let frame = 0;
    const place = () => {
      frame = 0;
      const { start, span } = scrollSpan(virtualizer, below.current, screen.current);
      const fraction = Math.min(1, Math.max(0, (window.scrollY - start) / span));
      if (thumb.current) thumb.current.style.transform = `translateY(${fraction * height}px)`;
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(place);
    };
    const onResize = () => {
      screen.current = window.innerHeight;
      onScroll();
    };
    place();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onResize);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onResize);
      cancelAnimationFrame(frame);
    };
  }, [virtualizer, layout, height]);

  useEffect(() => {
    if (!trackElement) return;
    const observer = new ResizeObserver(([entry]) => setHeight(entry!.contentRect.height));
    observer.observe(trackElement);
    return () => observer.disconnect();
  }, [trackElement]);

  // Measured again as a drag starts: what sits above the list may have changed its height.
  const remeasure = () => {
    below.current = Math.max(0, document.documentElement.scrollHeight - virtualizer.getTotalSize());
    screen.current = window.innerHeight;
  };
  const span = () => scrollSpan(virtualizer, below.current, screen.current);
  return { track, trackRef, thumb, height, remeasure, span };
}

/**
 * The date scrubber at the right edge: years marked along it, a drag or a tap jumps there
 * (showing the month under the finger), and from the keyboard it is a slider over the months
 * (arrows a month, Page Up/Down a year).
 */
export function Scrubber({ layout, virtualizer, current }: ScrubberProps) {
  const { track, trackRef, thumb, height, remeasure, span: scrollRange } = useScrubberTrack(virtualizer, layout);
  const [drag, setDrag] = useState<{ y: number; month: number } | null>(null);

  if (layout.months.length < 2) return null;

  // A point on the track is both a place in the list (its bottom is the oldest month: what the
  // bubble names) and a place the page scrolls to (its bottom is the end of the page: where the
  // thumb is drawn). The month named is always on screen: f * total lies in
  // [f * span, f * span + the screen's height].
  const total = virtualizer.getTotalSize() - virtualizer.options.scrollMargin;
  const monthAt = (fraction: number): number => {
    const item = virtualizer.getVirtualItemForOffset(virtualizer.options.scrollMargin + Math.min(fraction * total, total - 1));
    return item ? monthIndexOfRow(layout, item.index) : 0;
  };
  const fractionAt = (clientY: number): number => {
    const rect = track.current!.getBoundingClientRect();
    return Math.min(1, Math.max(0, (clientY - rect.top) / rect.height));
  };
  const scrollToFraction = (fraction: number) => {
    const { start, span } = scrollRange();
    window.scrollTo({ top: start + fraction * span });
  };
  const jumpToMonth = (index: number) => {
    const month = Math.min(layout.months.length - 1, Math.max(0, index));
    virtualizer.scrollToIndex(layout.headerRows[month]!, { align: 'start' });
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    event.preventDefault();
    // Measured again as a drag starts (once, not in every frame): what sits above the list (the
    // phone backup's card and status) may have changed its height since the list was laid out.
    remeasure();
    event.currentTarget.setPointerCapture(event.pointerId);
    const fraction = fractionAt(event.clientY);
    setDrag({ y: event.clientY - track.current!.getBoundingClientRect().top, month: monthAt(fraction) });
    scrollToFraction(fraction);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const fraction = fractionAt(event.clientY);
    setDrag({ y: event.clientY - track.current!.getBoundingClientRect().top, month: monthAt(fraction) });
    scrollToFraction(fraction);
  };
  const onPointerEnd = () => setDrag(null);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const step: Record<string, number> = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1, PageDown: 12, PageUp: -12 };
    if (event.key in step) jumpToMonth(current + step[event.key]!);
    else if (event.key === 'Home') jumpToMonth(0);
    else if (event.key === 'End') jumpToMonth(layout.months.length - 1);
    else return;
    event.preventDefault();
  };

  return (
    <div
      className={drag ? 'scrubber scrubber-dragging' : 'scrubber'}
      role="slider"
      tabIndex={0}
      aria-label="Jump to a month"
      aria-orientation="vertical"
      aria-valuemin={1}
      aria-valuemax={layout.months.length}
      aria-valuenow={current + 1}
      aria-valuetext={monthLabel(layout.months[current]!.month)}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerEnd}
      onPointerCancel={onPointerEnd}
    >
      <div ref={trackRef} className="scrubber-track">
        <YearMarks layout={layout} virtualizer={virtualizer} height={height} total={total} />
        <div ref={thumb} className="scrubber-thumb" />
        {drag && (
          <div className="scrubber-bubble" style={{ transform: `translateY(${drag.y}px)` }}>
            {monthLabel(layout.months[drag.month]!.month, true)}
          </div>
        )}
      </div>
    </div>
  );
}

/** A mark for each year where it starts on the track, leaving out those that would overlap. */
function YearMarks({
  layout,
  virtualizer,
  height,
  total,
}: {
  layout: Timeline;
  virtualizer: Virtualizer<Window, Element>;
  height: number;
  total: number;
}) {
  if (height === 0 || total <= 0) return null;
  const marks: { year: string; top: number }[] = [];
  let lastTop = -Infinity;
  layout.months.forEach((month, index) => {
    const year = month.month.slice(0, 4);
    const previous = layout.months[index - 1];
    if (previous && previous.month.slice(0, 4) === year) return;
    const start = virtualizer.measurementsCache[layout.headerRows[index]!]?.start ?? 0;
    const top = ((start - virtualizer.options.scrollMargin) / total) * height;
    if (top - lastTop < 20 || top > height - 12) return;
    lastTop = top;
    marks.push({ year, top });
  });
  return (
    <>
      {marks.map((mark) => (
        <span key={mark.year} className="scrubber-year" style={{ transform: `translateY(${mark.top}px)` }} aria-hidden="true">
          {mark.year}
        </span>
      ))}
    </>
  );
}
