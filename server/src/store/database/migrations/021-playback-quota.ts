/**
 * 21: playback copies count against the quota of the accounts whose videos they are. A copy that
 * ran out of their room records how far it got: it is tried again only once they have more room
 * than that.
 */
export const migration = {
  version: 21,
  sql: `
  ALTER TABLE playback_copies ADD COLUMN needs_room INTEGER NOT NULL DEFAULT 0;
  `,
};
