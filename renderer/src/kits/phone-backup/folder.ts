import { api, data, isApiError } from '../../api/client.ts';
import { idempotencyKey } from '../../api/ids.ts';
import type { Node } from '../../api/types.ts';
import { chosenFolderId, rememberFolder } from './folder-choice.ts';

export const BACKUP_FOLDER = 'Phone backup';

/** Where a run sends: the folder's id, and its path in words ("Phone backup/Chrome on Pixel 7"). */
export interface BackupFolder {
  id: string;
  path: string;
}

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

/** "Phone backup/Chrome on Pixel 7": a folder's path from My files down, as the settings and the run say it. */
export function pathWords(path: Node[]): string {
  return path.map((folder) => folder.name).join('/');
}

/** A folder in the trash, or inside one, takes no backup: it was deleted, as far as the family can tell. */
export function inTrash(path: Node[]): boolean {
  return path.some((folder) => folder.trashed_at !== null);
}

/**
 * The remembered folder from My files down to itself, while it is there to receive photos;
 * null when none is remembered, or it was deleted (for good, or into the trash).
 */
export async function rememberedFolder(userId: string): Promise<Node[] | null> {
  const id = chosenFolderId(userId);
  if (id === null) return null;
  try {
    const path = (await data(api.GET('/nodes/{id}/path', { params: { path: { id } } }))).items;
    return path.length > 0 && !inTrash(path) ? path : null;
  } catch (caught) {
    // Only a folder that is gone is replaced: a network that failed must not make a second one.
    if (isApiError(caught, 'not_found')) return null;
    throw caught;
  }
}

/**
 * This device's folder: the one it remembers (wherever it was moved, whatever it was renamed
 * to), else `Phone backup/<device>/` in My files, found or made, and remembered from then on.
 * A phone's photos never land loose among documents.
 */
/** A folder chosen on a computer keeps its own name in Hearth: My files/<its name>, made if missing. */
export async function namedFolder(name: string): Promise<BackupFolder> {
  return { id: await folderIn(null, name), path: name };
}

export async function deviceBackupFolder(userId: string, device: string): Promise<BackupFolder> {
  const remembered = await rememberedFolder(userId);
  if (remembered) return { id: remembered.at(-1)!.id, path: pathWords(remembered) };
  const id = await folderIn(await folderIn(null, BACKUP_FOLDER), device);
  rememberFolder(userId, id);
  return { id, path: `${BACKUP_FOLDER}/${device}` };
}
