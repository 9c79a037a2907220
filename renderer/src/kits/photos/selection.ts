import type { Node } from '../../api/types.ts';
import { useSelection, type Selection as ItemSelection } from '../../ui/useSelection.ts';

/**
 * The month (`YYYY-MM`) the server counts a gallery item in: its taken time on the clock where
 * it was taken (the instant moved by its zone), else its upload time.
 */
export function monthOfNode(node: Pick<Node, 'taken_at' | 'taken_offset' | 'created_at'>): string {
  const at = node.taken_at === undefined ? node.created_at : node.taken_at + (node.taken_offset ?? 0) * 60_000;
  return new Date(at).toISOString().slice(0, 7);
}

/** The app's selection of nodes, counted by month for each month's "Select all". */
export type Selection = ItemSelection<Node>;

export function useGallerySelection(): Selection {
  return useSelection<Node>(monthOfNode);
}
