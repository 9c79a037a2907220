import Database from 'better-sqlite3';
import { nameKey, naturalSortKey, searchKey } from '../../server/src/services/files/node-names.ts';

const DAY_MS = 24 * 60 * 60_000;

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

const DOC_KINDS: [string, string, string][] = [
  ['Report', '.pdf', 'application/pdf'],
  ['Scan', '.pdf', 'application/pdf'],
  ['notes-', '.txt', 'text/plain'],
  ['Été', '.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['Budget v', '.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['Ölçü ', '.odt', 'application/vnd.oasis.opendocument.text'],
];

/**
 * Writes nodes the way the server does (see FileService.completeContent and NodeService),
 * straight into the database with prepared statements, one transaction per `build`.
 */
export class TreeBuilder {
  count = 0;
  private idCounter = 0;
  /** Creation times walk forward from ten years ago, a few minutes apart. */
  private clock = Date.now() - 3650 * DAY_MS;
  private seed = 42;
  /** Bytes of file content added per owner in the current build. */
  private usedBytes = new Map<string, number>();
  private stmts: { node: Database.Statement; version: Database.Statement } | null = null;

  /**
   * `ownerId` owns the nodes made from here on; set it to build for several accounts in
   * one `build` (each account's used_bytes is brought up to date at the end).
   */
  constructor(
    private readonly file: string,
    public ownerId: string,
  ) {}

  /**
   * Runs `work` in one transaction with the secondary indexes of the two tables dropped, then
   * creates them again from their own SQL in sqlite_master (the migration's definitions):
   * sorting once is far faster than updating ten B-trees row by row. No journal while it runs
   * (the server is stopped and a failed build is thrown away); WAL again at the end. `work`
   * gets the connection for rows of other tables (users, permissions) in the same transaction.
   */
  build<T>(work: (db: Database.Database) => T): T {
    const db = new Database(this.file);
    try {
      db.pragma('journal_mode = OFF');
      db.pragma('synchronous = OFF');
      db.pragma('foreign_keys = OFF');
      db.pragma('cache_size = -1048576');
      this.count = (db.prepare('SELECT count(*) AS n FROM nodes').get() as { n: number }).n;
      this.stmts = {
        node: db.prepare(`INSERT INTO nodes (id, owner_id, parent_id, type, name, name_key, sort_name, search_name, size, mime_type,
            version, created_by, created_at, updated_at, is_media, image_width, image_height, taken_at, taken_sort)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
        version:
          db.prepare(`INSERT INTO node_versions (id, node_id, version, size, library_id, blob, sha256, mime_type, created_by, created_at)
          VALUES (?, ?, 1, ?, 'internal', ?, NULL, ?, ?, ?)`),
      };
      const indexes = db
        .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name IN ('nodes', 'node_versions') AND sql IS NOT NULL")
        .all() as { name: string; sql: string }[];
      this.usedBytes.clear();
      const result = db.transaction(() => {
        for (const index of indexes) db.exec(`DROP INDEX "${index.name}"`);
        const out = work(db);
        for (const index of indexes) db.exec(index.sql);
        const usage = db.prepare('UPDATE users SET used_bytes = used_bytes + ? WHERE id = ?');
        for (const [owner, bytes] of this.usedBytes) usage.run(bytes, owner);
        return out;
      })();
      db.pragma('journal_mode = WAL');
      return result;
    } finally {
      this.stmts = null;
      db.close();
    }
  }

  folder(parentId: string | null, name: string): string {
    return this.node(parentId, 'folder', name, 0, null, null);
  }

  /** A document with a name from DOC_KINDS; `n` keeps names unique within the folder. */
  document(parentId: string, n: number): string {
    const [stem, ext, mime] = DOC_KINDS[this.random(DOC_KINDS.length)]!;
    return this.node(parentId, 'file', `${stem}${n + 1}${ext}`, 10_000 + this.random(2_000_000), mime, null);
  }

  image(parentId: string, n: number): string {
    const taken = this.clock - this.random(3650) * DAY_MS - this.random(DAY_MS);
    return this.node(
      parentId,
      'file',
      `IMG_${String(n + 1).padStart(6, '0')}.jpg`,
      1_500_000 + this.random(4_000_000),
      'image/jpeg',
      taken,
    );
  }

  private node(
    parentId: string | null,
    type: 'folder' | 'file',
    name: string,
    size: number,
    mime: string | null,
    takenAt: number | null,
  ): string {
    this.clock += 1 + this.random(300_000);
    const now = this.clock;
    const id = this.nextId(now);
    const isMedia = mime !== null && (mime.startsWith('image/') || mime.startsWith('video/')) ? 1 : 0;
    this.stmts!.node.run(
      id,
      this.ownerId,
      parentId,
      type,
      name,
      nameKey(name),
      naturalSortKey(name),
      searchKey(name),
      size,
      mime,
      type === 'file' ? 1 : 0,
      this.ownerId,
      now,
      now,
      isMedia,
      isMedia ? 4032 : null,
      isMedia ? 3024 : null,
      takenAt,
      takenAt ?? now,
    );
    if (type === 'file') {
      this.stmts!.version.run(this.nextId(now), id, size, this.nextId(now), mime, this.ownerId, now);
      this.usedBytes.set(this.ownerId, (this.usedBytes.get(this.ownerId) ?? 0) + size);
    }
    this.count++;
    return id;
  }

  /**
   * A ULID as the server makes them (48-bit time, then 80 bits, Crockford base32), the 80
   * bits from a counter: the ulid package draws them from crypto one character at a time,
   * about 75 µs an id, which alone would take over a minute for a million nodes.
   */
  nextId(time = this.clock): string {
    let out = '';
    for (let i = 0, t = time; i < 10; i++, t = Math.floor(t / 32)) out = CROCKFORD[t % 32]! + out;
    let tail = '';
    for (let i = 0, c = this.idCounter++; i < 16; i++, c = Math.floor(c / 32)) tail = CROCKFORD[c % 32]! + tail;
    return out + tail;
  }

  /** Deterministic (xorshift), so every run builds the same tree. */
  private random(below: number): number {
    this.seed ^= this.seed << 13;
    this.seed ^= this.seed >>> 17;
    this.seed ^= this.seed << 5;
    return (this.seed >>> 0) % below;
  }
}
