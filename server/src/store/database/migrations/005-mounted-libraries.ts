/**
 * 5: libraries the server mounted itself (a drive, or a pool of drives): how to mount them again.
 */
export const migration = {
  version: 5,
  sql: `
  ALTER TABLE libraries ADD COLUMN mount_spec TEXT;
  `,
};
