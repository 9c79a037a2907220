/**
 * 6: who an invite is for, as the owner wrote it (the console lists invites by it)
 */
export const migration = {
  version: 6,
  sql: `
  ALTER TABLE invites ADD COLUMN label TEXT;
  `,
};
