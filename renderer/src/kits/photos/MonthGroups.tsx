import { useMemo, useRef, useState, type ReactNode } from 'react';
import type { Node } from '../../api/types.ts';
import { columnsFor, GAP } from './grid.ts';
import { groupByMonth, monthCountWords, monthLabel } from './months.ts';
import { newClicks, NO_SELECTION, withShiftRange } from './range.ts';
import type { Selection } from './selection.ts';
import { Tile } from './Tile.tsx';
import { useWidth } from './useListPlacement.ts';

/**
 * A short list of photos and videos (all loaded at once) shown as the timeline shows them: by
 * month, newest first, each month named with its count, the timeline's tiles in its grid. With a
 * `selection` its tiles select as the timeline's do (a long press on a phone, the corner's check
 * on a computer, then taps), and a shift-click chooses every tile between it and the last one.
 */
export function MonthGroups({
  items,
  label,
  onOpen,
  action,
  selection = NO_SELECTION,
}: {
  items: readonly Node[];
  /** The region's accessible name ("Photos in Private"). */
  label: string;
  onOpen: (node: Node) => void;
  /** A control under each tile (Private's "Move out"), left out while selecting. */
  action?: (node: Node) => ReactNode;
  selection?: Selection;
}) {
  const ref = useRef<HTMLElement>(null);
  const width = useWidth(ref);
  const groups = useMemo(() => groupByMonth(items), [items]);
  const order = useMemo(() => groups.flatMap((group) => group.items), [groups]);
  // Not state: what the last click held and chose draws nothing.
  const [clicks] = useState(newClicks);
  const ranged = useMemo(() => withShiftRange(selection, order, clicks), [selection, order, clicks]);
  const columns = columnsFor(width || 360);
  const size = Math.max(60, Math.floor(((width || 360) - GAP * (columns - 1)) / columns));
  return (
    <section
      ref={ref}
      className={selection === NO_SELECTION ? 'month-groups' : 'month-groups month-groups-selectable'}
      aria-label={label}
      // The tile's click does not say whether shift was held: noted here, on the way down to it.
      onClickCapture={(event) => clicks.held(event.shiftKey)}
    >
      {groups.map((group) => (
        <section key={group.month} className="month-group" aria-label={monthLabel(group.month)}>
          <h2 className="month-group-title">
            {monthLabel(group.month)}
            <span className="month-group-count">{monthCountWords(group)}</span>
          </h2>
          <ul className="month-group-tiles" style={{ gap: GAP }}>
            {group.items.map((node) => (
              <li key={node.id} style={{ width: size }}>
                <Tile node={node} size={size} selection={ranged} onOpen={onOpen} />
                {!selection.active && action?.(node)}
              </li>
            ))}
          </ul>
        </section>
      ))}
    </section>
  );
}
