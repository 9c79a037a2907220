import type { Node } from '../../../api/types.ts';

/**
 * What a person may do with what they selected. Their own photos they may move and put in the
 * trash; someone else's (shown to them by an album or a share) they may look at, download and
 * mark as a favourite, never move or throw away. An album takes only its maker's own photos, so
 * a new album (Share) or Add to album takes the person's own, where others' may be selected.
 */
export interface Split {
  own: Node[];
  others: Node[];
}

export function splitByOwner(nodes: readonly Node[], me: string): Split {
  const own: Node[] = [];
  const others: Node[] = [];
  for (const node of nodes) (node.owner_id === me ? own : others).push(node);
  return { own, others };
}

/** Only photos and videos go into albums. */
export function isMedia(node: Pick<Node, 'type' | 'mime_type'>): boolean {
  return node.type === 'file' && (node.mime_type?.startsWith('image/') === true || node.mime_type?.startsWith('video/') === true);
}

/**
 * What was left out and why, in a family's words: "2 are Emma’s: only Emma can move them."
 * `does` says the action of "it" or "them"; `names` maps account ids to names (someone not
 * found is "someone else").
 */
export function skippedWords(
  others: readonly Node[],
  does: (them: string) => string,
  names: ReadonlyMap<string, string> | undefined,
): string | null {
  if (others.length === 0) return null;
  const owners = [...new Set(others.map((node) => node.owner_id))];
  const count = others.length === 1 ? 'One is' : `${others.length.toLocaleString()} are`;
  const action = does(others.length === 1 ? 'it' : 'them');
  const name = owners.length === 1 ? names?.get(owners[0]!) : undefined;
  return name ? `${count} ${name}’s: only ${name} can ${action}.` : `${count} someone else’s: only their owner can ${action}.`;
}
