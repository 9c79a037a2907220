/**
 * 19: backups keep the latest few snapshots whatever their day (a second "Back up now" on one day
 * no longer replaces the morning's good copy; 5 for every destination, old ones too), and a failed
 * run keeps its error code beside its words (destination_unsafe, backup_unreachable…)
 */
export const migration = {
  version: 19,
  sql: `
  ALTER TABLE backup_destinations ADD COLUMN keep_last INTEGER NOT NULL DEFAULT 5;
  ALTER TABLE backup_runs ADD COLUMN error_code TEXT;
  `,
};
