/**
 * 29: dead properties (RFC 4918 PROPPATCH, issue 34): what a drive client keeps on a file or
 * folder (Windows' attributes and times, Finder's tags, litmus's test values), each as the XML
 * element it sent, namespaces declared on it, so PROPFIND gives back exactly what was set. They
 * belong to the node: a rename or move keeps them, and deleting the node for good (the trash
 * emptied, the account removed) takes them with it.
 */
export const migration = {
  version: 29,
  sql: `
  CREATE TABLE dav_properties (
    node_id TEXT NOT NULL REFERENCES nodes(id) ON DELETE CASCADE,
    ns TEXT NOT NULL,
    name TEXT NOT NULL,
    xml TEXT NOT NULL,
    PRIMARY KEY (node_id, ns, name)
  ) STRICT, WITHOUT ROWID;
  `,
};
