import { SAFE_ID } from '../../store/archives/backup-archive.ts';
import { BackupSecrets } from '../../store/data-dir/backup-secrets.ts';
import { INTERNAL_LIBRARY_ID } from '../../store/content/content-stores.ts';
import { openConnection, type Db } from '../../store/database/db.ts';
import type { S3Place } from '../../store/archives/s3-storage.ts';
import type { ServiceDeps } from '../common/context.ts';
import { nameKey, numberedName } from '../files/node-names.ts';
import { nameColumns } from '../files/nodes.ts';
import { restoredName } from './snapshot-rows.ts';
import { s3Address } from './s3-destination.ts';

type Engine = ServiceDeps['config']['sqliteEngine'];

/** The restored database holds a row that is not Hearth's: the restore stops, naming the database. */
export class ForeignRows extends Error {
  constructor(readonly what: string) {
    super(`the backup's database holds ${what}`);
  }
}

/**
 * The restored database, made to fit this PC: every version's content is now in the internal
 * library, whose folder is this data folder's; libraries on the old PC's drives are forgotten,
 * with uploads under way and garbage (their bytes are in no backup). Its rows are input from
 * outside (snapshot-rows.ts): ids that become paths on disk must be Hearth's, names are mended
 * as uploads would take them, and no file is dated after the snapshot. Answers its server id.
 */
export function settleDatabase(file: string, internalPath: string, engine: Engine, snapshotAt: number): string {
  const db = openConnection(file, { engine, fileMustExist: true });
  try {
    const row = db.prepare("SELECT value FROM meta WHERE key = 'server_id'").get() as { value: string } | undefined;
    if (!row) throw new Error("the backup's database has no server id");
    db.transaction(() => {
      db.prepare('DELETE FROM uploads').run();
      db.prepare('DELETE FROM content_garbage').run();
      db.prepare('UPDATE node_versions SET library_id = ? WHERE library_id <> ?').run(INTERNAL_LIBRARY_ID, INTERNAL_LIBRARY_ID);
      db.prepare('DELETE FROM libraries WHERE id <> ?').run(INTERNAL_LIBRARY_ID);
      db.prepare('UPDATE libraries SET path = ?, is_default = 1, status = ? WHERE id = ?').run(internalPath, 'online', INTERNAL_LIBRARY_ID);
      checkIds(db);
      mendNames(db);
      db.prepare('UPDATE nodes SET created_at = min(created_at, ?), updated_at = min(updated_at, ?)').run(snapshotAt, snapshotAt);
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
    return JSON.parse(row.value) as string;
  } finally {
    db.close();
  }
}

/** Node ids name thumbnails on disk, content ids the content files: anything but an id (`../`) stops the restore. */
function checkIds(db: Db): void {
  for (const { id } of db.prepare('SELECT id FROM nodes').iterate() as Iterable<{ id: string }>)
    if (!SAFE_ID.test(id)) throw new ForeignRows('a file or folder whose id is not an id');
  for (const { blob } of db.prepare('SELECT blob FROM node_versions').iterate() as Iterable<{ blob: string }>)
    if (!SAFE_ID.test(blob)) throw new ForeignRows('a content file whose id is not an id');
}

/** Names the upload rules refuse, mended (restoredName), numbered when the mended name is a sibling's already. */
function mendNames(db: Db): void {
  const rows = db.prepare('SELECT id, name, type, container, in_trash FROM nodes').all() as {
    id: string;
    name: string;
    type: 'file' | 'folder';
    container: string;
    in_trash: number;
  }[];
  const taken = db.prepare('SELECT 1 FROM nodes WHERE container = ? AND name_key = ? AND in_trash = 0 AND id <> ?');
  const rename = db.prepare(
    'UPDATE nodes SET name = @name, name_key = @name_key, sort_name = @sort_name, search_name = @search_name WHERE id = @id',
  );
  for (const node of rows) {
    const mended = restoredName(node.name);
    if (mended === node.name) continue;
    let name = mended;
    for (let n = 1; node.in_trash === 0 && taken.get(node.container, nameKey(name), node.id); n++)
      name = numberedName(mended, n, node.type === 'file');
    rename.run({ id: node.id, ...nameColumns(name) });
  }
}

/**
 * The bucket restored from is also a destination of the restored server: it keeps working with
 * the keys the owner typed (they just read the whole backup). The secret goes where the
 * restored server looks for it (backup-secrets.ts), never into the database.
 */
export function keepBucketKeys(file: string, staging: string, place: S3Place, engine: Engine): void {
  const db = openConnection(file, { engine, fileMustExist: true });
  let ids: string[];
  try {
    const address = s3Address(place);
    ids = (db.prepare("SELECT id FROM backup_destinations WHERE kind = 's3' AND path = ?").all(address) as { id: string }[]).map(
      (r) => r.id,
    );
    db.prepare("UPDATE backup_destinations SET access_key_id = ?, region = ? WHERE kind = 's3' AND path = ?").run(
      place.access_key_id,
      place.region,
      address,
    );
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  const secrets = new BackupSecrets(staging);
  for (const id of ids) secrets.set(id, place.secret_access_key);
}
