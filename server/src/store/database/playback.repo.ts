import type { Db } from './db.ts';

/**
 * Where a content file stands:
 * - `unprobed`: a video not looked at yet;
 * - `not_needed`: every browser plays it as it is;
 * - `waiting`: it needs a copy, not made yet (the queue);
 * - `ready`: its copy is on the library, `size` bytes;
 * - `failed`: ffmpeg could not make one (a damaged file): not tried again by itself.
 *
 * A copy counts against the quota of every account whose video it is (a shared photo counts in
 * full for each account too): `needs_room` is how far a try got before it ran out of their room.
 */
export type PlaybackState = 'unprobed' | 'not_needed' | 'waiting' | 'ready' | 'failed';

export interface PlaybackRow {
  library_id: string;
  blob: string;
  state: PlaybackState;
  /** The VideoProbe as JSON, once looked at. */
  probe: string | null;
  size: number;
  enqueued_at: number;
  made_at: number | null;
  failure: string | null;
  /** Bytes of quota room a try at the copy found too little (0: none ran out). */
  needs_room: number;
}

export interface PlaybackCounts {
  waiting: number;
  unprobed: number;
  ready: number;
  failed: number;
  /** Bytes the ready copies take. */
  bytes: number;
}

/**
 * The current content of a file node: the version the node is at. A copy is kept only while
 * some file's current content is its content file (a trashed file's included: it may come back).
 */
const CURRENT = `SELECT 1 FROM node_versions v JOIN nodes n ON n.id = v.node_id AND n.version = v.version
  WHERE v.library_id = p.library_id AND v.blob = p.blob`;

/** Playback copies, one per content file: two accounts' same video share one, as they share the file. */
export class PlaybackRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      add: db.prepare(`INSERT INTO playback_copies (library_id, blob, state, enqueued_at) VALUES (?, ?, 'unprobed', ?)
        ON CONFLICT (library_id, blob) DO NOTHING`),
      // Every video file's current content; the partial index of the gallery's videos does not
      // cover files outside the gallery, so this reads the nodes once: at start only.
      backfill: db.prepare(`INSERT INTO playback_copies (library_id, blob, state, enqueued_at)
        SELECT DISTINCT v.library_id, v.blob, 'unprobed', @at FROM nodes n
          JOIN node_versions v ON v.node_id = n.id AND v.version = n.version
        WHERE n.type = 'file' AND n.mime_type LIKE 'video/%' AND true
        ON CONFLICT (library_id, blob) DO NOTHING`),
      get: db.prepare('SELECT * FROM playback_copies WHERE library_id = ? AND blob = ?'),
      next: db.prepare('SELECT * FROM playback_copies WHERE state = ? ORDER BY enqueued_at, blob LIMIT ?'),
      probed: db.prepare(`UPDATE playback_copies SET state = @state, probe = @probe, failure = NULL
        WHERE library_id = @library_id AND blob = @blob AND state = 'unprobed'`),
      ready: db.prepare(`UPDATE playback_copies SET state = 'ready', size = @size, made_at = @at, failure = NULL, needs_room = 0
        WHERE library_id = @library_id AND blob = @blob AND state = 'waiting'`),
      outOfRoom: db.prepare(`UPDATE playback_copies SET needs_room = max(needs_room, @reached)
        WHERE library_id = @library_id AND blob = @blob AND state = 'waiting'`),
      // Along the queue index: the ready copies (a few per video that needs one), each looked up by its content.
      chargedTo: db.prepare(`SELECT coalesce(sum(p.size), 0) AS n FROM playback_copies p WHERE p.state = 'ready' AND EXISTS (
        SELECT 1 FROM node_versions v JOIN nodes n ON n.id = v.node_id AND n.version = v.version
        WHERE v.library_id = p.library_id AND v.blob = p.blob AND n.owner_id = ?)`),
      failed: db.prepare(`UPDATE playback_copies SET state = 'failed', failure = @failure
        WHERE library_id = @library_id AND blob = @blob AND state IN ('waiting', 'unprobed')`),
      notNeeded: db.prepare(`UPDATE playback_copies SET state = 'not_needed'
        WHERE library_id = ? AND blob = ? AND state = 'waiting'`),
      originalSize: db.prepare('SELECT size FROM node_versions WHERE library_id = ? AND blob = ? LIMIT 1'),
      makeAgain: db.prepare(`UPDATE playback_copies SET state = 'waiting', size = 0, made_at = NULL, enqueued_at = @at
        WHERE library_id = @library_id AND blob = @blob AND state = 'ready'`),
      remove: db.prepare('DELETE FROM playback_copies WHERE library_id = ? AND blob = ?'),
      before: db.prepare(`SELECT count(*) AS n FROM playback_copies
        WHERE state = 'waiting' AND (enqueued_at < @at OR (enqueued_at = @at AND blob < @blob))`),
      unreferenced: db.prepare(`SELECT library_id, blob, state FROM playback_copies p WHERE NOT EXISTS (${CURRENT}) LIMIT ?`),
      onLibrary: db.prepare("SELECT * FROM playback_copies WHERE library_id = ? AND state IN ('waiting', 'ready')"),
      counts: db.prepare(`SELECT
          count(*) FILTER (WHERE state = 'waiting') AS waiting,
          count(*) FILTER (WHERE state = 'unprobed') AS unprobed,
          count(*) FILTER (WHERE state = 'ready') AS ready,
          count(*) FILTER (WHERE state = 'failed') AS failed,
          coalesce(sum(size) FILTER (WHERE state = 'ready'), 0) AS bytes
        FROM playback_copies`),
      holders:
        db.prepare(`SELECT n.id, n.owner_id, n.mime_type FROM node_versions v JOIN nodes n ON n.id = v.node_id AND n.version = v.version
        WHERE v.library_id = ? AND v.blob = ?`),
    };
  }

  /** A video's content to look at; nothing when it is already known. */
  add(libraryId: string, blob: string, at: number): boolean {
    return Number(this.stmts.add.run(libraryId, blob, at).changes) === 1;
  }

  /** Every video's current content not known yet (an upgrade, a crash between an upload and its event). */
  backfill(at: number): number {
    return Number(this.stmts.backfill.run({ at }).changes);
  }

  get(libraryId: string, blob: string): PlaybackRow | undefined {
    return this.stmts.get.get(libraryId, blob) as PlaybackRow | undefined;
  }

  /** The oldest of a state: `unprobed` to look at, `waiting` to make. */
  next(state: 'unprobed' | 'waiting', limit: number): PlaybackRow[] {
    return this.stmts.next.all(state, limit) as PlaybackRow[];
  }

  /** The outcome of looking at it; false when it went meanwhile (or someone else looked first). */
  probed(libraryId: string, blob: string, probe: string, needed: boolean): boolean {
    const state = needed ? 'waiting' : 'not_needed';
    return Number(this.stmts.probed.run({ library_id: libraryId, blob, probe, state }).changes) === 1;
  }

  /** The copy is in place; false when its content went meanwhile (its file must go too). */
  ready(libraryId: string, blob: string, size: number, at: number): boolean {
    return Number(this.stmts.ready.run({ library_id: libraryId, blob, size, at }).changes) === 1;
  }

  /** A try ran out of its owners' room after `reached` bytes: it waits until they have more than that. */
  outOfRoom(libraryId: string, blob: string, reached: number): void {
    this.stmts.outOfRoom.run({ library_id: libraryId, blob, reached });
  }

  /** Bytes of the ready copies of the account's videos (their current content, trash included, as its quota counts files). */
  chargedTo(userId: string): number {
    return (this.stmts.chargedTo.get(userId) as { n: number }).n;
  }

  /** No copy can be made: ffmpeg failed on it (or could not even read it) every time. */
  failed(libraryId: string, blob: string, failure: string): void {
    this.stmts.failed.run({ library_id: libraryId, blob, failure: failure.slice(0, 500) });
  }

  /** Waiting under a rule that no longer asks for a copy. */
  notNeeded(libraryId: string, blob: string): void {
    this.stmts.notNeeded.run(libraryId, blob);
  }

  /** The content file's size, from any version that has it (0 when none does any more). */
  originalSize(libraryId: string, blob: string): number {
    return (this.stmts.originalSize.get(libraryId, blob) as { size: number } | undefined)?.size ?? 0;
  }

  /** A ready copy whose file is gone (a database restored from a backup, a file removed by hand, or by the owner): made again. */
  makeAgain(libraryId: string, blob: string, at: number): boolean {
    return Number(this.stmts.makeAgain.run({ library_id: libraryId, blob, at }).changes) === 1;
  }

  /** Copies the queue makes before this one (it takes them oldest first). */
  waitingBefore(row: Pick<PlaybackRow, 'enqueued_at' | 'blob'>): number {
    return (this.stmts.before.get({ at: row.enqueued_at, blob: row.blob }) as { n: number }).n;
  }

  remove(libraryId: string, blob: string): void {
    this.stmts.remove.run(libraryId, blob);
  }

  /** Rows no file's current content needs any more (deleted for good, replaced by a new version, merged away). */
  unreferenced(limit: number): Pick<PlaybackRow, 'library_id' | 'blob' | 'state'>[] {
    return this.stmts.unreferenced.all(limit) as Pick<PlaybackRow, 'library_id' | 'blob' | 'state'>[];
  }

  /** The rows of a library that have, or are to have, a file. */
  withFilesOn(libraryId: string): PlaybackRow[] {
    return this.stmts.onLibrary.all(libraryId) as PlaybackRow[];
  }

  counts(): PlaybackCounts {
    return this.stmts.counts.get() as PlaybackCounts;
  }

  /** The files whose current content this is, and their owners. */
  holders(libraryId: string, blob: string): { id: string; owner_id: string; mime_type: string | null }[] {
    return this.stmts.holders.all(libraryId, blob) as { id: string; owner_id: string; mime_type: string | null }[];
  }
}
