import type { Store } from '../../store/index.ts';

/** A file, folder or photo a notification would name (its title, its link, or a count it is in). */
export interface NamedNode {
  id: string;
  owner_id: string;
}

/**
 * The one gate every notification that names a node passes: one naming what this returns false
 * for is not made (and a count leaves it out). What the person may see is checked before it
 * comes here (the grant, the album's reach); this holds what is never told whoever may see it:
 * what sits in someone's Private folder (moving in already removes its grants and album places,
 * so this only matters for a move racing a notification, and is kept as the last word).
 */
export function notifiable(store: Store, node: NamedNode): boolean {
  return !store.privateFolders.isInPrivate(node.id);
}
