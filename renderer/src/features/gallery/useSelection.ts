import { useCallback, useMemo, useState } from 'react';
import type { Node } from '../../api/types.ts';

/** The month (UTC, `YYYY-MM`) the server counts a gallery item in: its taken time, else its upload time. */
export function monthOfNode(node: Pick<Node, 'taken_at' | 'created_at'>): string {
  return new Date(node.taken_at ?? node.created_at).toISOString().slice(0, 7);
}

export interface Selection {
  /** Selection mode: a tap selects instead of opening. */
  active: boolean;
  count: number;
  has(id: string): boolean;
  countIn(month: string): number;
  nodes(): Node[];
  start(node?: Node): void;
  toggle(node: Node): void;
  set(nodes: readonly Node[], selected: boolean): void;
  clear(): void;
}

export function useSelection(): Selection {
  const [active, setActive] = useState(false);
  const [chosen, setChosen] = useState<ReadonlyMap<string, Node>>(new Map());

  const change = useCallback((nodes: readonly Node[], selected: boolean | null) => {
    setChosen((before) => {
      const next = new Map(before);
      for (const node of nodes) {
        const on = selected ?? !next.has(node.id);
        if (on) next.set(node.id, node);
        else next.delete(node.id);
      }
      return next;
    });
  }, []);

  return useMemo<Selection>(() => {
    const perMonth = new Map<string, number>();
    for (const node of chosen.values()) {
      const month = monthOfNode(node);
      perMonth.set(month, (perMonth.get(month) ?? 0) + 1);
    }
    return {
      active,
      count: chosen.size,
      has: (id) => chosen.has(id),
      countIn: (month) => perMonth.get(month) ?? 0,
      nodes: () => [...chosen.values()],
      start: (node) => {
        setActive(true);
        if (node) change([node], true);
      },
      toggle: (node) => change([node], null),
      set: (nodes, selected) => change(nodes, selected),
      clear: () => {
        setActive(false);
        setChosen(new Map());
      },
    };
  }, [active, chosen, change]);
}
