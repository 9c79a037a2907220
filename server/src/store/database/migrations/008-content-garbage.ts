/**
 * 8: content files the database let go of (a version deleted for good, a copy never finished): the
 * only files the start-up clean-up may take away, and then only to the holding folder.
 */
export const migration = {
  version: 8,
  sql: `
  CREATE TABLE content_garbage (
    library_id TEXT NOT NULL,
    blob TEXT NOT NULL,
    reason TEXT NOT NULL CHECK (reason IN ('deleted', 'unfinished')),
    at INTEGER NOT NULL,
    PRIMARY KEY (library_id, blob)
  ) STRICT, WITHOUT ROWID;
  `,
};
