import type { Db } from './db.ts';

/**
 * Failed attempts, kept in the database so a restart cannot wipe an attacker's count.
 */
export class RateEventsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      insert: db.prepare('INSERT INTO rate_events (bucket, at) VALUES (?, ?)'),
      since: db.prepare('SELECT count(*) AS n, min(at) AS oldest FROM rate_events WHERE bucket = ? AND at > ?'),
      clear: db.prepare('DELETE FROM rate_events WHERE bucket = ?'),
      prune: db.prepare('DELETE FROM rate_events WHERE at <= ?'),
    };
  }

  add(bucket: string, at: number): void {
    this.stmts.insert.run(bucket, at);
  }

  countSince(bucket: string, since: number): { count: number; oldest: number | null } {
    const row = this.stmts.since.get(bucket, since) as { n: number; oldest: number | null };
    return { count: row.n, oldest: row.oldest };
  }

  clear(bucket: string): void {
    this.stmts.clear.run(bucket);
  }

  prune(before: number): void {
    this.stmts.prune.run(before);
  }
}
