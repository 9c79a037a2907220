import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { NodeType } from '../../contract/files-responses.ts';
import { openConnection, type Db } from './db.ts';
import type { SqliteEngine } from './engines/types.ts';

/** A family member as a snapshot's database knew them. */
export interface SnapshotPerson {
  id: string;
  username: string;
  display_name: string | null;
  role: string;
  files: number;
  bytes: number;
}

/** A node as it was in a snapshot, with its content then (files only). */
export interface SnapshotNode {
  id: string;
  owner_id: string;
  parent_id: string | null;
  type: NodeType;
  name: string;
  size: number;
  mime_type: string | null;
  created_at: number;
  updated_at: number;
  taken_at: number | null;
  /** Direct children not in the trash (folders); 0 for files. */
  children: number;
  library_id: string | null;
  blob: string | null;
  sha256: string | null;
}

const NODE_COLUMNS = `n.id, n.owner_id, n.parent_id, n.type, n.name, n.size, n.mime_type, n.created_at, n.updated_at, n.taken_at,
  CASE n.type WHEN 'folder' THEN (SELECT count(*) FROM nodes c WHERE c.parent_id = n.id AND c.in_trash = 0) ELSE 0 END AS children,
  v.library_id, v.blob, v.sha256`;
const WITH_VERSION = 'FROM nodes n LEFT JOIN node_versions v ON v.node_id = n.id AND v.version = n.version';

/**
 * A snapshot's database, read as it was: a private copy in the data folder (never a shared /tmp),
 * opened for queries only. What was in the trash on that date is not shown: it was not the
 * family's files then either.
 */
export class SnapshotDb {
  /**
   * What is in someone's Private folder is never browsed in a snapshot (the owner of the PC
   * browses everyone's): a condition on `n`, empty for a snapshot from before Private (migration 023).
   */
  private readonly notPrivate: string;

  private constructor(
    private readonly db: Db,
    readonly file: string,
  ) {
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').all('nodes') as { name: string }[];
    this.notPrivate = columns.some((column) => column.name === 'in_private') ? ' AND n.in_private = 0' : '';
  }

  /** `file` is a private copy: its journal is made a plain one so that no -wal or -shm is needed, then writes are refused. */
  static open(file: string, engine: SqliteEngine | 'auto'): SnapshotDb {
    const db = openConnection(file, { engine, fileMustExist: true });
    try {
      db.pragma('journal_mode = DELETE');
      db.pragma('query_only = ON');
      db.prepare('SELECT 1 FROM nodes LIMIT 1').get();
    } catch (error) {
      db.close();
      throw error;
    }
    return new SnapshotDb(db, file);
  }

  people(): SnapshotPerson[] {
    return this.db
      .prepare(
        `SELECT u.id, u.username, u.display_name, u.role,
          (SELECT count(*) FROM nodes n WHERE n.owner_id = u.id AND n.type = 'file' AND n.in_trash = 0) AS files,
          (SELECT coalesce(sum(n.size), 0) FROM nodes n WHERE n.owner_id = u.id AND n.type = 'file' AND n.in_trash = 0) AS bytes
        FROM users u ORDER BY u.role = 'admin' DESC, lower(coalesce(u.display_name, u.username)), u.id`,
      )
      .all() as SnapshotPerson[];
  }

  node(id: string): SnapshotNode | undefined {
    return this.db.prepare(`SELECT ${NODE_COLUMNS} ${WITH_VERSION} WHERE n.id = ? AND n.in_trash = 0${this.notPrivate}`).get(id) as
      SnapshotNode | undefined;
  }

  /** A folder's (or someone's top level's) children, folders first, by name as the Files page sorts them. */
  children(ownerId: string, parentId: string | null, offset: number, limit: number): SnapshotNode[] {
    const where = parentId === null ? 'n.parent_id IS NULL AND n.owner_id = ?' : 'n.parent_id = ?';
    return this.db
      .prepare(
        `SELECT ${NODE_COLUMNS} ${WITH_VERSION} WHERE ${where} AND n.in_trash = 0${this.notPrivate}
        ORDER BY n.type = 'file', n.sort_name, n.id LIMIT ? OFFSET ?`,
      )
      .all(parentId ?? ownerId, limit, offset) as SnapshotNode[];
  }

  /** Ancestors from the top level down to the node itself. */
  pathOf(id: string): SnapshotNode[] {
    const out: SnapshotNode[] = [];
    for (let node = this.node(id); node; node = node.parent_id === null ? undefined : this.node(node.parent_id)) {
      out.unshift(node);
      // A cycle is impossible in a database Hearth wrote; a damaged one must not hang the server.
      if (out.length > 10_000) break;
    }
    return out;
  }

  /** The node and everything below it not in the trash, each parent before its children. */
  subtree(id: string): SnapshotNode[] {
    const top = this.node(id);
    if (!top) return [];
    const out: SnapshotNode[] = [top];
    const statement = this.db.prepare(
      `SELECT ${NODE_COLUMNS} ${WITH_VERSION} WHERE n.parent_id = ? AND n.in_trash = 0${this.notPrivate} ORDER BY n.type, n.sort_name`,
    );
    for (let i = 0; i < out.length; i++) {
      if (out[i]!.type === 'folder') out.push(...(statement.all(out[i]!.id) as SnapshotNode[]));
    }
    return out;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Where snapshot copies live while the owner browses them: in the data folder, removed after. */
export const BROWSE_FOLDER = 'backup-browse';
/** A copy unused this long is closed and removed. */
export const BROWSE_KEEP_MS = 5 * 60_000;
/** Copies open at once: each is a whole database. */
const MAX_OPEN = 2;

interface Entry {
  key: string;
  ready: Promise<SnapshotDb>;
  leases: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Snapshot databases copied out of backups, kept a few minutes while the owner browses (a large
 * family's database can take seconds to decrypt) and while a restore reads one. A copy is
 * removed once unused for BROWSE_KEEP_MS, when the server stops, and (whatever a crash left) when
 * it starts.
 */
export class SnapshotDbCache {
  private readonly entries = new Map<string, Entry>();
  private readonly folder: string;

  constructor(
    dataDir: string,
    private readonly engine: SqliteEngine | 'auto',
  ) {
    this.folder = path.join(dataDir, BROWSE_FOLDER);
    fs.rmSync(this.folder, { recursive: true, force: true });
  }

  /**
   * The snapshot database for `key`, made with `fill(file)` (which writes and proves the copy)
   * when not cached. Call `release` when done with it.
   */
  async lease(key: string, fill: (file: string) => Promise<void>): Promise<{ db: SnapshotDb; release: () => void }> {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { key, ready: this.load(fill), leases: 0, timer: null };
      this.entries.set(key, entry);
      const made = entry;
      made.ready.catch(() => {
        if (this.entries.get(key) === made) this.entries.delete(key);
      });
      this.evictBeyond(MAX_OPEN);
    }
    entry.leases++;
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = null;
    let db: SnapshotDb;
    try {
      db = await entry.ready;
    } catch (error) {
      entry.leases--;
      throw error;
    }
    const held = entry;
    let released = false;
    return {
      db,
      release: () => {
        if (released) return;
        released = true;
        held.leases--;
        if (held.leases === 0 && this.entries.get(key) === held) {
          held.timer = setTimeout(() => this.drop(held), BROWSE_KEEP_MS);
          held.timer.unref();
        }
      },
    };
  }

  /** The server is stopping: every copy closed and removed. */
  close(): void {
    for (const entry of [...this.entries.values()]) this.drop(entry, true);
    fs.rmSync(this.folder, { recursive: true, force: true });
  }

  private async load(fill: (file: string) => Promise<void>): Promise<SnapshotDb> {
    fs.mkdirSync(this.folder, { recursive: true, mode: 0o700 });
    const file = path.join(this.folder, `${crypto.randomBytes(8).toString('hex')}.db`);
    try {
      await fill(file);
      return SnapshotDb.open(file, this.engine);
    } catch (error) {
      removeCopy(file);
      throw error;
    }
  }

  private evictBeyond(limit: number): void {
    const idle = [...this.entries.values()].filter((e) => e.leases === 0);
    while (this.entries.size > limit && idle.length > 0) this.drop(idle.shift()!);
  }

  private drop(entry: Entry, force = false): void {
    if (entry.leases > 0 && !force) return;
    if (entry.timer) clearTimeout(entry.timer);
    if (this.entries.get(entry.key) === entry) this.entries.delete(entry.key);
    entry.ready.then(
      (db) => {
        db.close();
        removeCopy(db.file);
      },
      () => {},
    );
  }
}

function removeCopy(file: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(`${file}${suffix}`, { force: true });
}
