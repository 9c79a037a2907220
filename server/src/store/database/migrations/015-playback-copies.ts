/**
 * 15: playback copies: for each video content file (shared by every version with its bytes, so two
 * accounts' same video have one copy), what it holds and whether a browser-friendly copy is needed,
 * waiting or made. The copies are files under the library's playback/ folder, made again if lost:
 * never backed up.
 */
export const migration = {
  version: 15,
  sql: `
  CREATE TABLE playback_copies (
    library_id TEXT NOT NULL,
    blob TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('unprobed', 'not_needed', 'waiting', 'ready', 'failed')),
    probe TEXT,
    size INTEGER NOT NULL DEFAULT 0,
    enqueued_at INTEGER NOT NULL,
    made_at INTEGER,
    failure TEXT,
    PRIMARY KEY (library_id, blob)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX playback_copies_queue ON playback_copies(state, enqueued_at);
  `,
};
