/**
 * 17: download tickets: a signed-in request names what to zip and gets a one-use ticket, whose URL
 * the browser follows to save the zip straight to disk; the ticket is a short-lived secret stored
 * hashed, never a session token in a URL.
 */
export const migration = {
  version: 17,
  sql: `
  CREATE TABLE download_tickets (
    ticket_hash TEXT PRIMARY KEY,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    node_ids TEXT NOT NULL,
    name TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX download_tickets_expiry ON download_tickets(expires_at);
  `,
};
