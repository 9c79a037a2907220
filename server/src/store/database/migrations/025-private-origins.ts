/**
 * 25: where each thing in Private came from. "Move to Private" remembers the folder it left
 * (NULL: the top of My files), so "Move out" can put it back there. No foreign key on the folder:
 * it may be deleted for good while the item waits in Private, and the move out then takes it to
 * the top of My files instead. The row goes with the item.
 */
export const migration = {
  version: 25,
  sql: `
  CREATE TABLE private_origins (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    from_parent_id TEXT,
    moved_at INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
};
