/**
 * 12: a content file shared by every version with the same bytes, found by its SHA-256. Only a hash
 * the server computed from the whole stored file may lead an upload to share a file, and releases
 * before 11 recorded a client's checksum of its last request instead (wrong for uploads sent in
 * several): every hash recorded so far is computed again from the files, by the content index job,
 * which walks the versions still to hash through this partial index.
 */
export const migration = {
  version: 12,
  sql: `
  UPDATE node_versions SET sha256 = NULL WHERE sha256 IS NOT NULL;
  CREATE INDEX node_versions_unhashed ON node_versions(id) WHERE sha256 IS NULL;
  `,
};
