import { useMemo, useRef, type ReactNode } from 'react';
import type { Node } from '../../api/types.ts';
import { columnsFor, GAP } from './grid.ts';
import { groupByMonth, monthCountWords, monthLabel } from './months.ts';
import type { Selection } from './selection.ts';
import { Tile } from './Tile.tsx';
import { useWidth } from './useListPlacement.ts';

// A short list is not selected from: its tiles open, and each has its own action under it.
const NO_SELECTION: Selection = {
  active: false,
  count: 0,
  has: () => false,
  countIn: () => 0,
  items: () => [],
  start: () => {},
  toggle: () => {},
  set: () => {},
  clear: () => {},
};

/**
 * A short list of photos and videos (all loaded at once) shown as the timeline shows them: by
 * month, newest first, each month named with its count, the timeline's tiles in its grid.
 */
export function MonthGroups({
  items,
  label,
  onOpen,
  action,
}: {
  items: readonly Node[];
  /** The region's accessible name ("Photos in Private"). */
  label: string;
  onOpen: (node: Node) => void;
  /** A control under each tile (Private's "Move out"). */
  action?: (node: Node) => ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  const width = useWidth(ref);
  const groups = useMemo(() => groupByMonth(items), [items]);
  const columns = columnsFor(width || 360);
  const size = Math.max(60, Math.floor(((width || 360) - GAP * (columns - 1)) / columns));
  return (
    <section ref={ref} className="month-groups" aria-label={label}>
      {groups.map((group) => (
        <section key={group.month} className="month-group" aria-label={monthLabel(group.month)}>
          <h2 className="month-group-title">
            {monthLabel(group.month)}
            <span className="month-group-count">{monthCountWords(group)}</span>
          </h2>
          <ul className="month-group-tiles" style={{ gap: GAP }}>
            {group.items.map((node) => (
              <li key={node.id} style={{ width: size }}>
                <Tile node={node} size={size} selection={NO_SELECTION} onOpen={onOpen} />
                {action?.(node)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
