import type { Node } from '../../api/types.ts';
import type { Selection } from './selection.ts';

// A short list that is not selected from: its tiles open, and each has its own action under it.
export const NO_SELECTION: Selection = {
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

/** The items from `from` to `to` (either way round) in the order shown; just `to` when `from` is not shown. */
export function rangeOf<T extends { id: string }>(order: readonly T[], from: string, to: string): T[] {
  const a = order.findIndex((item) => item.id === from);
  const b = order.findIndex((item) => item.id === to);
  if (b < 0) return [];
  if (a < 0) return [order[b]!];
  return order.slice(Math.min(a, b), Math.max(a, b) + 1);
}

/** What the list's last click held (shift) and chose (the anchor of a range). */
export class Clicks {
  shift = false;
  anchor: string | null = null;
  /** Noted as a click goes down to its tile (the tile's own click does not say). */
  held(shift: boolean): void {
    this.shift = shift;
  }
}

export const newClicks = (): Clicks => new Clicks();

/**
 * The selection as a computer's lists have it: a shift-click chooses every item between the
 * last one chosen and this one, as a file manager does; any other click toggles one.
 */
export function withShiftRange(selection: Selection, order: readonly Node[], clicks: Clicks): Selection {
  if (selection === NO_SELECTION) return selection;
  return {
    ...selection,
    start: (item) => {
      if (item) clicks.anchor = item.id;
      selection.start(item);
    },
    toggle: (item) => {
      const from = clicks.anchor;
      clicks.anchor = item.id;
      if (clicks.shift && from && from !== item.id) selection.set(rangeOf(order, from, item.id), true);
      else selection.toggle(item);
    },
  };
}
