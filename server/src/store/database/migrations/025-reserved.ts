/**
 * 25: reserved for another branch of issue 32 (its own 025 replaces this file at merge).
 * Kept here only so this branch's 026 follows without a gap.
 */
export const migration = {
  version: 25,
  sql: ``,
};
