import { api, data } from '../../api/client.ts';
import { session } from '../../api/session.ts';
import type { Node } from '../../api/types.ts';

export function accountId(): string {
  const state = session.current();
  return state.kind === 'signed-in' ? state.user.id : 'nobody';
}

/** Every file in the target folder by lower-cased name (names are unique ignoring case). */
export async function namesIn(parentId: string | null): Promise<Map<string, Node>> {
  const names = new Map<string, Node>();
  let cursor: string | undefined;
  do {
    const page = await data(
      api.GET('/nodes', { params: { query: { parent_id: parentId ?? 'root', limit: 1000, ...(cursor ? { cursor } : {}) } } }),
    );
    for (const node of page.items) names.set(node.name.toLowerCase(), node);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return names;
}
