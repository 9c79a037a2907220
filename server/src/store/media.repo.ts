import type { Db } from './db.ts';

export interface MediaJobRow {
  node_id: string;
  version: number;
  /** Starts at which the job's content was on a drive that was away (see MediaService). */
  attempts: number;
  enqueued_at: number;
}

export interface MediaResult {
  image_width: number | null;
  image_height: number | null;
  taken_at: number | null;
  has_thumbnail: boolean;
  state: 'done' | 'failed';
}

/** The media queue lives in the database: work waiting at a crash or restart is not forgotten. */
export class MediaRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      enqueue: db.prepare(`INSERT INTO media_jobs (node_id, version, enqueued_at) VALUES (@node_id, @version, @at)
        ON CONFLICT (node_id) DO UPDATE SET version = excluded.version, attempts = 0, enqueued_at = excluded.enqueued_at`),
      markPending: db.prepare("UPDATE nodes SET media_state = 'pending' WHERE id = ?"),
      next: db.prepare('SELECT * FROM media_jobs ORDER BY enqueued_at, node_id LIMIT @limit'),
      attempt: db.prepare('UPDATE media_jobs SET attempts = attempts + 1 WHERE node_id = ?'),
      remove: db.prepare('DELETE FROM media_jobs WHERE node_id = ? AND version = ?'),
      // created_at is the fallback of `taken` sorting when the file has no capture time.
      apply: db.prepare(`UPDATE nodes SET image_width = @image_width, image_height = @image_height, taken_at = @taken_at,
          taken_sort = coalesce(@taken_at, created_at), has_thumbnail = @has_thumbnail, media_state = @state
        WHERE id = @node_id AND version = @version`),
      backfill: db.prepare(`INSERT INTO media_jobs (node_id, version, enqueued_at)
        SELECT id, version, @at FROM nodes WHERE is_media = 1 AND type = 'file' AND (media_state IS NULL OR media_state = 'pending')
        ON CONFLICT (node_id) DO NOTHING`),
      count: db.prepare('SELECT count(*) AS n FROM media_jobs'),
    };
  }

  enqueue(nodeId: string, version: number, at: number): void {
    this.stmts.enqueue.run({ node_id: nodeId, version, at });
    this.stmts.markPending.run(nodeId);
  }

  next(limit: number): MediaJobRow[] {
    return this.stmts.next.all({ limit }) as MediaJobRow[];
  }

  /** One more start at which the job's content was away. */
  attempt(nodeId: string): void {
    this.stmts.attempt.run(nodeId);
  }

  /** Records the outcome for that version only: a newer upload meanwhile keeps its own job. */
  finish(job: MediaJobRow, result: MediaResult): boolean {
    const changed = (
      this.stmts.apply.run({
        node_id: job.node_id,
        version: job.version,
        image_width: result.image_width,
        image_height: result.image_height,
        taken_at: result.taken_at,
        has_thumbnail: result.has_thumbnail ? 1 : 0,
        state: result.state,
      }) as { changes: number }
    ).changes;
    this.stmts.remove.run(job.node_id, job.version);
    return changed === 1;
  }

  /** Media never processed (an upgrade, a crash before the job was written): queue them. */
  backfill(at: number): number {
    return (this.stmts.backfill.run({ at }) as { changes: number }).changes;
  }

  pending(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
