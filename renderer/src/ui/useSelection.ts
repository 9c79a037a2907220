import { useCallback, useMemo, useState } from 'react';

/**
 * The one selection model of the app's lists (files and the gallery): what is chosen, and
 * whether selection mode is on (while it is, a tap selects instead of opening). Items are kept
 * as they were when chosen; a view that shows fresh state (starred or not) looks its own items
 * up with `has`.
 */
export interface Selection<T extends { id: string }> {
  active: boolean;
  count: number;
  has(id: string): boolean;
  /** How many chosen items are in a group (the gallery's months); 0 without `groupOf`. */
  countIn(group: string): number;
  items(): T[];
  /** Selection mode on, with `item` chosen (a long press, the hover check). */
  start(item?: T): void;
  toggle(item: T): void;
  /** Choose or unchoose many at once (a whole month). */
  set(items: readonly T[], selected: boolean): void;
  /** Nothing chosen, and selection mode off. */
  clear(): void;
}

/** `groupOf` must be stable (a module-level function): the counts per group are kept with the selection. */
export function useSelection<T extends { id: string }>(groupOf?: (item: T) => string): Selection<T> {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<ReadonlyMap<string, T>>(new Map());

  const change = useCallback((items: readonly T[], selected: boolean | null) => {
    setChosen((before) => {
      const next = new Map(before);
      for (const item of items) {
        const on = selected ?? !next.has(item.id);
        if (on) next.set(item.id, item);
        else next.delete(item.id);
      }
      return next;
    });
  }, []);

  return useMemo<Selection<T>>(() => {
    const perGroup = new Map<string, number>();
    if (groupOf) {
      for (const item of chosen.values()) {
        const group = groupOf(item);
        perGroup.set(group, (perGroup.get(group) ?? 0) + 1);
      }
    }
    return {
      active,
      count: chosen.size,
      has: (id) => chosen.has(id),
      countIn: (group) => perGroup.get(group) ?? 0,
      items: () => [...chosen.values()],
      start: (item) => {
        setActive(true);
        if (item) change([item], true);
      },
      toggle: (item) => change([item], null),
      set: (items, selected) => change(items, selected),
      clear: () => {
        setActive(false);
        setChosen(new Map());
      },
    };
  }, [active, chosen, change, groupOf]);
}
