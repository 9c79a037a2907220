import type { Db } from './db.ts';

/**
 * Failed attempts, kept in the database so a restart cannot wipe an attacker's count. An
 * attempt under way is written here too, before it is checked, and removed again if it
 * turns out right: a crash in between leaves it counted as a failure, never forgotten.
 */
export class RateEventsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT INTO rate_events (bucket, at) VALUES (?, ?)'),
      since: db.prepare('SELECT count(*) AS n, min(at) AS oldest FROM rate_events WHERE bucket = ? AND at > ?'),
      before: db.prepare('SELECT count(*) AS n, max(at) AS latest FROM rate_events WHERE bucket = ? AND at > ? AND rowid < ?'),
      remove: db.prepare('DELETE FROM rate_events WHERE rowid = ?'),
      moveTo: db.prepare('UPDATE rate_events SET at = ? WHERE rowid = ?'),
      clear: db.prepare('DELETE FROM rate_events WHERE bucket = ?'),
      prune: db.prepare('DELETE FROM rate_events WHERE at <= ?'),
    };
  }

  /** Records one event; the id removes it again. */
  add(bucket: string, at: number): number {
    return Number((this.stmts.insert.run(bucket, at) as { lastInsertRowid: number | bigint }).lastInsertRowid);
  }

  countSince(bucket: string, since: number): { count: number; oldest: number | null } {
    const row = this.stmts.since.get(bucket, since) as { n: number; oldest: number | null };
    return { count: row.n, oldest: row.oldest };
  }

  /** Events of a bucket recorded before the event `id`: the attempts that came first. */
  countBefore(bucket: string, since: number, id: number): { count: number; latest: number | null } {
    const row = this.stmts.before.get(bucket, since, id) as { n: number; latest: number | null };
    return { count: row.n, latest: row.latest };
  }

  /** Dates an event anew (a failure is dated when it is known, not when the attempt began). */
  moveTo(id: number, at: number): void {
    this.stmts.moveTo.run(at, id);
  }

  remove(ids: readonly number[]): void {
    for (const id of ids) this.stmts.remove.run(id);
  }

  clear(bucket: string): void {
    this.stmts.clear.run(bucket);
  }

  prune(before: number): void {
    this.stmts.prune.run(before);
  }
}
