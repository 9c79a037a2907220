import type { Db } from './db.ts';

export interface MediaJobRow {
  node_id: string;
  version: number;
  /** Starts at which the job's content was on a drive that was away (see MediaService). */
  attempts: number;
  enqueued_at: number;
  /** 1: read the file's details again, nothing else (its thumbnails and size are already known). */
  details_only: number;
}

/** What a file says about itself, as stored (see migration 14). */
export interface MediaFacts {
  taken_at: number | null;
  /** Minutes east of UTC of taken_at, when the file says. */
  taken_offset: number | null;
  duration_ms: number | null;
  latitude: number | null;
  longitude: number | null;
  place_town: string | null;
  /** ISO 3166-1 alpha-2. */
  place_country: string | null;
  camera_make: string | null;
  camera_model: string | null;
  lens: string | null;
  f_number: number | null;
  exposure_time: number | null;
  iso: number | null;
  focal_length: number | null;
  /** Folded words search finds it by: town, country, camera. */
  media_search: string | null;
}

export const NO_FACTS: MediaFacts = {
  taken_at: null,
  taken_offset: null,
  duration_ms: null,
  latitude: null,
  longitude: null,
  place_town: null,
  place_country: null,
  camera_make: null,
  camera_model: null,
  lens: null,
  f_number: null,
  exposure_time: null,
  iso: null,
  focal_length: null,
  media_search: null,
};

export interface MediaResult extends MediaFacts {
  image_width: number | null;
  image_height: number | null;
  has_thumbnail: boolean;
  state: 'done' | 'failed';
}

/**
 * The facts' columns, and taken_sort from them: the time on the camera's clock where it was
 * taken (the instant plus its zone), else the upload time. Months and searched dates are
 * counted on it, so a photo of 00:30 on 1 August in Lisbon is in August. A file that says no
 * capture time keeps the one placed as its upload completed (placeEarly: the device's hint).
 */
const SET_FACTS = `taken_at = coalesce(@taken_at, taken_at),
  taken_offset = CASE WHEN @taken_at IS NULL THEN taken_offset ELSE @taken_offset END,
  taken_sort = coalesce(@taken_at + coalesce(@taken_offset, 0) * 60000, taken_at + coalesce(taken_offset, 0) * 60000, created_at),
  duration_ms = @duration_ms, latitude = @latitude, longitude = @longitude, place_town = @place_town,
  place_country = @place_country, camera_make = @camera_make, camera_model = @camera_model, lens = @lens,
  f_number = @f_number, exposure_time = @exposure_time, iso = @iso, focal_length = @focal_length, media_search = @media_search`;

/** What a kept copy takes of its original at once: its size, when and where it was taken, with what. */
const COPIED_FACTS = `image_width, image_height, taken_at, taken_offset, taken_sort, duration_ms, latitude, longitude,
  place_town, place_country, camera_make, camera_model, lens, f_number, exposure_time, iso, focal_length, media_search`;

/** The media queue lives in the database: work waiting at a crash or restart is not forgotten. */
export class MediaRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      enqueue: db.prepare(`INSERT INTO media_jobs (node_id, version, enqueued_at) VALUES (@node_id, @version, @at)
        ON CONFLICT (node_id) DO UPDATE SET version = excluded.version, attempts = 0, enqueued_at = excluded.enqueued_at, details_only = 0`),
      placeEarly: db.prepare(`UPDATE nodes SET taken_at = @taken_at, taken_offset = @taken_offset,
        taken_sort = @taken_at + coalesce(@taken_offset, 0) * 60000 WHERE id = @node_id`),
      markPending: db.prepare("UPDATE nodes SET media_state = 'pending' WHERE id = ?"),
      // Every upload's job before any re-read of details: the family's new photos never wait for an upgrade's catching up.
      next: db.prepare('SELECT * FROM media_jobs ORDER BY details_only, enqueued_at, node_id LIMIT @limit'),
      attempt: db.prepare('UPDATE media_jobs SET attempts = attempts + 1 WHERE node_id = ?'),
      remove: db.prepare('DELETE FROM media_jobs WHERE node_id = ? AND version = ?'),
      // created_at is the fallback of `taken` sorting when the file has no capture time.
      apply: db.prepare(`UPDATE nodes SET image_width = @image_width, image_height = @image_height, ${SET_FACTS},
          has_thumbnail = @has_thumbnail, media_state = @state
        WHERE id = @node_id AND version = @version`),
      applyFacts: db.prepare(`UPDATE nodes SET ${SET_FACTS} WHERE id = @node_id AND version = @version`),
      backfill: db.prepare(`INSERT INTO media_jobs (node_id, version, enqueued_at)
        SELECT id, version, @at FROM nodes WHERE is_media = 1 AND type = 'file' AND (media_state IS NULL OR media_state = 'pending')
        ON CONFLICT (node_id) DO NOTHING`),
      count: db.prepare('SELECT count(*) AS n FROM media_jobs'),
      waitForTool: db.prepare(`INSERT INTO media_missing_tools (node_id, tool) VALUES (?, ?)
        ON CONFLICT (node_id) DO UPDATE SET tool = excluded.tool`),
      notWaiting: db.prepare('DELETE FROM media_missing_tools WHERE node_id = ?'),
      waitingFor: db.prepare(`SELECT m.node_id, n.version FROM media_missing_tools m JOIN nodes n ON n.id = m.node_id
        WHERE m.tool = ? AND n.type = 'file'`),
      forgetTool: db.prepare('DELETE FROM media_missing_tools WHERE tool = ?'),
      copyFacts: db.prepare(`UPDATE nodes SET (${COPIED_FACTS}) = (SELECT ${COPIED_FACTS} FROM nodes WHERE id = @from) WHERE id = @to`),
    };
  }

  /** The capture time known as an upload completes, before processing: the photo is in its month at once. */
  placeEarly(nodeId: string, takenAt: number, takenOffset: number | null): void {
    this.stmts.placeEarly.run({ node_id: nodeId, taken_at: takenAt, taken_offset: takenOffset });
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
        ...result,
        node_id: job.node_id,
        version: job.version,
        has_thumbnail: result.has_thumbnail ? 1 : 0,
      }) as { changes: number }
    ).changes;
    this.stmts.remove.run(job.node_id, job.version);
    return changed === 1;
  }

  /** A re-read's outcome: the facts only; thumbnails, size and state stay as they are. */
  finishFacts(job: MediaJobRow, facts: MediaFacts): boolean {
    const changed = (this.stmts.applyFacts.run({ ...facts, node_id: job.node_id, version: job.version }) as { changes: number }).changes;
    this.stmts.remove.run(job.node_id, job.version);
    return changed === 1;
  }

  /** Forgets a job without recording anything (a re-read of details that could not be done). */
  drop(job: MediaJobRow): void {
    this.stmts.remove.run(job.node_id, job.version);
  }

  /**
   * A copy of the same bytes says what its original says, from its first moment: it lands in
   * the timeline at its day, not today's, while its thumbnails are made.
   */
  copyFacts(fromNodeId: string, toNodeId: string): void {
    this.stmts.copyFacts.run({ from: fromNodeId, to: toNodeId });
  }

  /** Media never processed (an upgrade, a crash before the job was written): queue them. */
  backfill(at: number): number {
    return (this.stmts.backfill.run({ at }) as { changes: number }).changes;
  }

  /** The node was not processed for want of `tool`: it is queued again at the first start that has it. */
  waitForTool(nodeId: string, tool: 'ffmpeg'): void {
    this.stmts.waitForTool.run(nodeId, tool);
  }

  /** Processed (or failed) for a reason of its own: nothing to wait for. */
  notWaitingForTool(nodeId: string): void {
    this.stmts.notWaiting.run(nodeId);
  }

  /** `tool` is here now: what waited for it is queued for a full processing, thumbnails included. Call in a transaction. */
  requeueWaitingFor(tool: 'ffmpeg', at: number): number {
    const rows = this.stmts.waitingFor.all(tool) as { node_id: string; version: number }[];
    for (const row of rows) this.enqueue(row.node_id, row.version, at);
    this.stmts.forgetTool.run(tool);
    return rows.length;
  }

  pending(): number {
    return (this.stmts.count.get() as { n: number }).n;
  }
}
