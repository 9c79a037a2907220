import type { Db } from './db.ts';

export interface LibraryRow {
  id: string;
  name: string;
  kind: 'internal' | 'external' | 'network' | 'pooled';
  path: string;
  is_default: number;
  status: 'online' | 'offline' | 'ejected';
  created_at: number;
}

export class LibrariesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      all: db.prepare('SELECT * FROM libraries ORDER BY created_at, id'),
      byId: db.prepare('SELECT * FROM libraries WHERE id = ?'),
      internal: db.prepare("SELECT * FROM libraries WHERE kind = 'internal'"),
      insert: db.prepare(`INSERT INTO libraries (id, name, kind, path, is_default, status, created_at)
        VALUES (@id, @name, @kind, @path, @is_default, @status, @created_at)`),
      setPath: db.prepare('UPDATE libraries SET path = ? WHERE id = ?'),
      defaultOne: db.prepare('SELECT * FROM libraries WHERE is_default = 1'),
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

  setPath(id: string, path: string): void {
    this.stmts.setPath.run(path, id);
  }
}
