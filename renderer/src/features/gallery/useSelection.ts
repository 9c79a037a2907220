import type { Node } from '../../api/types.ts';
import { useSelection, type Selection as ItemSelection } from '../../ui/useSelection.ts';

/** The month (UTC, `YYYY-MM`) the server counts a gallery item in: its taken time, else its upload time. */
export function monthOfNode(node: Pick<Node, 'taken_at' | 'created_at'>): string {
  return new Date(node.taken_at ?? node.created_at).toISOString().slice(0, 7);
}

/** The app's selection of nodes, counted by month for each month's "Select all". */
export type Selection = ItemSelection<Node>;

export function useGallerySelection(): Selection {
  return useSelection<Node>(monthOfNode);
}
