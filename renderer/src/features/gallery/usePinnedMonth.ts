import type { Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useState } from 'react';
import { monthIndexOfRow, type Timeline } from './layout.ts';

/** The month pinned at the top of the screen, and whether it is shown at all. */
export interface PinnedMonth {
  month: number;
  shown: boolean;
}

/**
 * Which month the label pinned at the top names: that of the row at the label's lower edge,
 * the first one a person sees under it. Read from the page's scroll in the frame it moves, not
 * from the virtualizer's range: the range starts at the row under the label (hidden by it), and
 * only re-renders when that row changes, so after a jump the label named a month not on screen.
 * While that row is a month's heading the heading speaks for itself and the label is hidden.
 * `covered`: how far down the screen the label reaches (lower while the selection bar is above it).
 */
export function usePinnedMonth(virtualizer: Virtualizer<Window, Element>, layout: Timeline, covered: number): PinnedMonth {
  const [packed, setPacked] = useState(0);
  useEffect(() => {
    let frame = 0;
    const read = () => {
      frame = 0;
      if (layout.rows.length === 0) return setPacked(0);
      const item = virtualizer.getVirtualItemForOffset(window.scrollY + covered);
      const row = item?.index ?? 0;
      const shown = layout.rows[row]?.kind === 'tiles';
      // One number, so an unchanged month costs no render.
      setPacked(monthIndexOfRow(layout, row) * 2 + (shown ? 1 : 0));
    };
    const onScroll = () => {
      frame ||= requestAnimationFrame(read);
    };
    read();
    window.addEventListener('scroll', onScroll, { passive: true });
    window.addEventListener('resize', onScroll);
    return () => {
      window.removeEventListener('scroll', onScroll);
      window.removeEventListener('resize', onScroll);
      cancelAnimationFrame(frame);
    };
  }, [virtualizer, layout, covered]);
  return { month: packed >> 1, shown: (packed & 1) === 1 };
}
