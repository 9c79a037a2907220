import type { Store } from '../../store/index.ts';

/** A file, folder or photo a notification would name (its title, its link, or a count it is in). */
export interface NamedNode {
  id: string;
  owner_id: string;
}

/**
 * The one gate every notification that names a node passes: one naming what this returns false
 * for is not made (and a count leaves it out). What the person may see is checked before it
 * comes here (the grant, the album's reach); this is where a rule about what is never told goes,
 * such as a private folder's contents.
 */
export function notifiable(_store: Store, _node: NamedNode): boolean {
  return true;
}
