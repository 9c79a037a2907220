import type { Actor, ServiceDeps } from '../common/context.ts';
import type { AccessService } from './access.ts';

/** At most this many dead properties on one file or folder: a client that wants more is refused (507). */
export const MAX_DAV_PROPERTIES = 100;
/** The largest value one property may hold, as the XML kept (507 beyond). */
export const MAX_DAV_PROPERTY_BYTES = 64 * 1024;
/** A namespace or a name longer than this is not one a client needs (403). */
const MAX_NAME_LENGTH = 1024;
/** RFC 4918 21.1: the DAV: namespace is the specification's; its properties are the server's to say. */
const PROTECTED_NS = 'DAV:';

/** A dead property as kept: its name, and its whole element as self-contained XML. */
export interface DavProperty {
  ns: string;
  name: string;
  xml: string;
}

/** One instruction of a PROPPATCH, in document order: `xml` is the element to keep (set only). */
export type DavPropertyChange = { op: 'set'; ns: string; name: string; xml: string } | { op: 'remove'; ns: string; name: string };

/**
 * What became of one instruction: 200 done; 403 a property no client may change (`protected`) or
 * a name too long; 507 past the limits; 424 left undone because another failed.
 */
export interface DavPropertyOutcome {
  ns: string;
  name: string;
  status: 200 | 403 | 424 | 507;
  reason?: 'protected' | 'name_too_long' | 'too_large' | 'too_many';
}

/**
 * Dead properties (RFC 4918 4 and 9.2): values a drive client keeps on a file or folder and
 * reads back, whatever they mean to it. A PROPPATCH is all or nothing: its instructions are
 * tried in order on a copy, and only when every one succeeds are they written, in one
 * transaction. The properties belong to the node, so a move keeps them and its deletion for
 * good takes them.
 */
export class DavPropertyService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  /** The properties of each node the caller may see, by node id (nodes it may not see are left out). */
  of(actor: Actor, nodeIds: readonly string[]): Map<string, DavProperty[]> {
    const visible = nodeIds.filter((id) => {
      try {
        this.access.node(actor, id, 'read');
        return true;
      } catch {
        return false;
      }
    });
    const out = new Map<string, DavProperty[]>(visible.map((id) => [id, []]));
    for (const row of this.deps.store.davProperties.forNodes(visible)) {
      out.get(row.node_id)!.push({ ns: row.ns, name: row.name, xml: row.xml });
    }
    return out;
  }

  /** Applies a PROPPATCH's instructions whole, or none of them (RFC 4918 9.2). */
  patch(actor: Actor, nodeId: string, changes: readonly DavPropertyChange[]): DavPropertyOutcome[] {
    this.access.node(actor, nodeId, 'write');
    const { store } = this.deps;
    const before = new Map(store.davProperties.forNode(nodeId).map((row) => [keyOf(row), row.xml]));
    const after = new Map(before);
    const outcomes = changes.map((change): DavPropertyOutcome => {
      const named = { ns: change.ns, name: change.name };
      if (change.ns === PROTECTED_NS) return { ...named, status: 403, reason: 'protected' };
      if (change.op === 'remove') {
        // Removing what is not there is not an error (RFC 4918 14.23).
        after.delete(keyOf(change));
        return { ...named, status: 200 };
      }
      if (change.ns.length > MAX_NAME_LENGTH || change.name.length > MAX_NAME_LENGTH) {
        return { ...named, status: 403, reason: 'name_too_long' };
      }
      if (Buffer.byteLength(change.xml) > MAX_DAV_PROPERTY_BYTES) return { ...named, status: 507, reason: 'too_large' };
      if (!after.has(keyOf(change)) && after.size >= MAX_DAV_PROPERTIES) return { ...named, status: 507, reason: 'too_many' };
      after.set(keyOf(change), change.xml);
      return { ...named, status: 200 };
    });
    if (outcomes.some((outcome) => outcome.status !== 200)) {
      return outcomes.map((outcome) => (outcome.status === 200 ? { ns: outcome.ns, name: outcome.name, status: 424 } : outcome));
    }
    store.transaction(() => {
      for (const key of before.keys()) {
        if (!after.has(key)) store.davProperties.remove(nodeId, ...splitKey(key));
      }
      for (const [key, xml] of after) {
        if (before.get(key) !== xml) store.davProperties.upsert({ node_id: nodeId, ns: splitKey(key)[0], name: splitKey(key)[1], xml });
      }
    });
    return outcomes;
  }

  /** A copy's properties are the original's (COPY, RFC 4918 9.8.2): the caller reads one and writes the other. */
  copy(actor: Actor, fromId: string, toId: string): void {
    this.access.node(actor, fromId, 'read');
    this.access.node(actor, toId, 'write');
    this.deps.store.davProperties.copy(fromId, toId);
  }
}

/** A namespace cannot hold a NUL (XML has none), so it separates the two halves of a key. */
function keyOf(name: { ns: string; name: string }): string {
  return `${name.ns}\u0000${name.name}`;
}

function splitKey(key: string): [string, string] {
  const at = key.indexOf('\u0000');
  return [key.slice(0, at), key.slice(at + 1)];
}
