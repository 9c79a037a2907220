import { api, data, isApiError } from '../../api/client.ts';
import { idempotencyKey } from '../../api/ids.ts';
import type { Node } from '../../api/types.ts';

export const BACKUP_FOLDER = 'Phone backup';

/** A folder of that name under the parent (names are unique ignoring case), made if missing. */
async function folderIn(parentId: string | null, name: string): Promise<string> {
  const found = await findFolder(parentId, name);
  if (found) return found.id;
  try {
    const made = await data(
      api.POST('/nodes/folder', { body: { name, parent_id: parentId ?? 'root' }, headers: { 'Idempotency-Key': idempotencyKey() } }),
    );
    return made.id;
  } catch (caught) {
    // Another tab or phone of this account made it a moment ago: use theirs.
    if (isApiError(caught, 'name_conflict')) {
      const again = await findFolder(parentId, name);
      if (again) return again.id;
    }
    throw caught;
  }
}

async function findFolder(parentId: string | null, name: string): Promise<Node | undefined> {
  const wanted = name.toLowerCase();
  let cursor: string | undefined;
  do {
    const page = await data(
      api.GET('/nodes', { params: { query: { parent_id: parentId ?? 'root', limit: 1000, ...(cursor ? { cursor } : {}) } } }),
    );
    const hit = page.items.find((node) => node.type === 'folder' && node.name.toLowerCase() === wanted);
    if (hit) return hit;
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return undefined;
}

/** `Phone backup/<device>/` in My files, made if missing: a phone's photos never land loose among documents. */
export async function deviceBackupFolder(device: string): Promise<string> {
  return folderIn(await folderIn(null, BACKUP_FOLDER), device);
}
