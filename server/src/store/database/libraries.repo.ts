import type { Db } from './db.ts';

export interface LibraryRow {
  id: string;
  name: string;
  kind: 'internal' | 'external' | 'network' | 'pooled';
  path: string;
  is_default: number;
  status: 'online' | 'offline' | 'ejected';
  created_at: number;
  /** JSON of a MountSpec when the server mounted it itself; null for a folder the owner registered. */
  mount_spec: string | null;
}

/** Where a member file system is mounted, found by its UUID wherever its device name is now. */
export interface MountedMember {
  uuid: string;
  /** The device it was last seen as (informative: names change between boots). */
  device: string;
  mount_point: string;
  /** The server mounted it (and so unmounts it on eject); false when it was already mounted. */
  mounted_by_server: boolean;
}

/** How to bring a library's file system back: one drive, or a mergerfs pool of drives. */
export type MountSpec =
  { kind: 'drive'; member: MountedMember } | { kind: 'pool'; mount_point: string; min_free_bytes: number; members: MountedMember[] };

export function parseMountSpec(row: LibraryRow): MountSpec | null {
  return row.mount_spec === null ? null : (JSON.parse(row.mount_spec) as MountSpec);
}

export class LibrariesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      all: db.prepare('SELECT * FROM libraries ORDER BY created_at, id'),
      byId: db.prepare('SELECT * FROM libraries WHERE id = ?'),
      internal: db.prepare("SELECT * FROM libraries WHERE kind = 'internal'"),
      insert: db.prepare(`INSERT INTO libraries (id, name, kind, path, is_default, status, created_at, mount_spec)
        VALUES (@id, @name, @kind, @path, @is_default, @status, @created_at, @mount_spec)`),
      setMount: db.prepare('UPDATE libraries SET path = ?, mount_spec = ? WHERE id = ?'),
      setPath: db.prepare('UPDATE libraries SET path = ? WHERE id = ?'),
      defaultOne: db.prepare('SELECT * FROM libraries WHERE is_default = 1'),
      // Unchanged rows are not written: every start sets each library's status, and a start
      // on a full disk must not need room in the database for nothing.
      setStatus: db.prepare('UPDATE libraries SET status = @status WHERE id = @id AND status IS NOT @status'),
      clearDefault: db.prepare('UPDATE libraries SET is_default = 0 WHERE is_default = 1'),
      makeDefault: db.prepare('UPDATE libraries SET is_default = 1 WHERE id = ?'),
      remove: db.prepare('DELETE FROM libraries WHERE id = ?'),
      // Each content file once, however many versions share it.
      contentBytes: db.prepare(
        'SELECT coalesce(sum(size), 0) AS n FROM (SELECT max(size) AS size FROM node_versions WHERE library_id = ? GROUP BY blob)',
      ),
      // Every version of the account's files, as its quota counts them: shared bytes count for each account.
      ownContentBytes: db.prepare(`SELECT coalesce(sum(v.size), 0) AS n FROM nodes n JOIN node_versions v ON v.node_id = n.id
        WHERE n.owner_id = ? AND v.library_id = ?`),
    };
  }

  all(): LibraryRow[] {
    return this.stmts.all.all() as LibraryRow[];
  }

  byId(id: string): LibraryRow | undefined {
    return this.stmts.byId.get(id) as LibraryRow | undefined;
  }

  internal(): LibraryRow | undefined {
    return this.stmts.internal.get() as LibraryRow | undefined;
  }

  defaultLibrary(): LibraryRow | undefined {
    return this.stmts.defaultOne.get() as LibraryRow | undefined;
  }

  insert(row: LibraryRow): void {
    this.stmts.insert.run(row);
  }

  setStatus(id: string, status: LibraryRow['status']): void {
    this.stmts.setStatus.run({ status, id });
  }

  /** Exactly one default: callers run this inside a transaction. */
  setDefault(id: string): void {
    this.stmts.clearDefault.run();
    this.stmts.makeDefault.run(id);
  }

  /** Forgets a library; the database refuses while any version or upload still names it. */
  remove(id: string): void {
    this.stmts.remove.run(id);
  }

  /** Bytes of file content (every version) stored on a library. */
  contentBytes(id: string): number {
    return (this.stmts.contentBytes.get(id) as { n: number }).n;
  }

  /** Bytes of one account's files (every version) on the library. */
  ownContentBytes(id: string, userId: string): number {
    return (this.stmts.ownContentBytes.get(userId, id) as { n: number }).n;
  }

  setMount(id: string, path: string, spec: MountSpec | null): void {
    this.stmts.setMount.run(path, spec === null ? null : JSON.stringify(spec), id);
  }

  setPath(id: string, path: string): void {
    this.stmts.setPath.run(path, id);
  }
}
