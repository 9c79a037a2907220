import type { Db } from './db.ts';

/** One dead property of a node: its name and its element as XML (namespaces declared on it). */
export interface DavPropertyRow {
  node_id: string;
  ns: string;
  name: string;
  xml: string;
}

/** WebDAV dead properties (PROPPATCH), by node; the node's deletion takes them (ON DELETE CASCADE). */
export class DavPropertiesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      forNode: db.prepare('SELECT * FROM dav_properties WHERE node_id = ? ORDER BY ns, name'),
      forNodes: db.prepare('SELECT * FROM dav_properties WHERE node_id IN (SELECT value FROM json_each(?)) ORDER BY node_id, ns, name'),
      upsert: db.prepare(`INSERT INTO dav_properties (node_id, ns, name, xml) VALUES (@node_id, @ns, @name, @xml)
        ON CONFLICT (node_id, ns, name) DO UPDATE SET xml = excluded.xml`),
      remove: db.prepare('DELETE FROM dav_properties WHERE node_id = ? AND ns = ? AND name = ?'),
      copy: db.prepare(`INSERT OR REPLACE INTO dav_properties (node_id, ns, name, xml)
        SELECT ?, ns, name, xml FROM dav_properties WHERE node_id = ?`),
    };
  }

  forNode(nodeId: string): DavPropertyRow[] {
    return this.stmts.forNode.all(nodeId) as DavPropertyRow[];
  }

  /** Several nodes' properties in one query (a PROPFIND of a folder and its children). */
  forNodes(nodeIds: readonly string[]): DavPropertyRow[] {
    if (nodeIds.length === 0) return [];
    return this.stmts.forNodes.all(JSON.stringify(nodeIds)) as DavPropertyRow[];
  }

  upsert(row: DavPropertyRow): void {
    this.stmts.upsert.run(row);
  }

  remove(nodeId: string, ns: string, name: string): void {
    this.stmts.remove.run(nodeId, ns, name);
  }

  /** Every property of one node onto another (COPY). */
  copy(fromId: string, toId: string): void {
    this.stmts.copy.run(toId, fromId);
  }
}
