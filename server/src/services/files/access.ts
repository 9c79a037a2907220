import { AppError } from '../../app-error.ts';
import type { Audience } from '../../events/bus.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { InheritedGrant } from '../../store/database/sharing.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * What the caller wants to do with a node:
 * - `read`: see, list, download;
 * - `write`: add inside it or change its content (upload, new folder, new version);
 * - `modify`: rename, move or trash the node itself;
 * - `manage`: what only the owner does (share it, grant access, delete for good, restore).
 */
export type Need = 'read' | 'write' | 'modify' | 'manage';

export type AccessRole = 'owner' | 'editor' | 'viewer';

/** Who asks: a session of an account, or (no session) the server's own work for that account. */
export type Caller = Pick<Actor, 'userId'> & Partial<Pick<Actor, 'sessionId'>>;

/**
 * The one access check every node route goes through. A node is visible to its owner and
 * to accounts granted access on it or on a folder above it; an editor works inside what was
 * granted but cannot rename or trash the granted item itself. The owner and members of an
 * album read the photos and videos it shows (see AlbumsRepo's ITEM_SHOWN), and nothing else of
 * their owners' trees; so does a partner the photos and videos a partner share shows (see
 * PartnersRepo's PARTNER_SHOWS). A node the caller may not see answers 404, the same as one that does
 * not exist: existence is never revealed.
 */
export class AccessService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * `albums: false` leaves out what the caller reads only through an album or a partner share:
   * what goes into an album must be the caller's own or granted to them, so an album never
   * passes on another's (AlbumsRepo's ITEM_SHOWN counts only those). `sharing: true` is for
   * what would show the node to others (a grant, a link, an album): nothing in Private is found.
   */
  node(actor: Caller, nodeId: string, need: Need, options: { albums?: boolean; sharing?: boolean } = {}): NodeRow {
    const node = this.deps.store.nodes.byId(nodeId, actor.userId);
    if (!node) throw new AppError('not_found');
    if (node.in_private && options.sharing) throw new AppError('not_found');
    if (node.in_private) return this.privateNode(actor, node, need);
    if (node.owner_id === actor.userId) return node;
    // Someone else's trash is theirs alone.
    if (node.in_trash) throw new AppError('not_found');
    const grants = this.deps.store.permissions.inherited(node.id, actor.userId);
    if (grants.length === 0) {
      // Read-only, whatever the album member's role: a contributor adds their own photos, never
      // changes another's. A partner looks, and nothing more.
      if (
        options.albums !== false &&
        (this.deps.store.partners.shows(node.id, actor.userId) || this.deps.store.albums.readable(node.id, actor.userId))
      ) {
        if (need !== 'read') throw new AppError('forbidden');
        return node;
      }
      throw new AppError('not_found');
    }
    if (!allows(grants, need)) throw new AppError('forbidden');
    return node;
  }

  /**
   * What is in Private is its owner's alone (404 for anyone else, whatever was shared before it
   * went in), and opens only in a session that unlocked it (403 `private_locked`). Two things need
   * no unlock: adding to the Private folder itself (moving a photo in, an upload into it), and
   * the server's own work for the owner (an upload completing), which names no session.
   */
  private privateNode(actor: Caller, node: NodeRow, need: Need): NodeRow {
    if (node.owner_id !== actor.userId) throw new AppError('not_found');
    const { sessionId } = actor;
    if (sessionId === undefined) return node;
    const root = this.deps.store.privateFolders.folderOf(actor.userId)?.node_id === node.id;
    // The folder itself stays where it is, as it is: renaming, moving or trashing it would lose the lock's place.
    if (root && (need === 'modify' || need === 'manage')) throw new AppError('forbidden');
    if (root && need === 'write') return node;
    if (!this.privateOpen({ sessionId })) throw new AppError('private_locked');
    return node;
  }

  /** Whether this session has the account's Private folder open now. */
  privateOpen(actor: Pick<Actor, 'sessionId'>): boolean {
    const until = this.deps.store.privateFolders.unlockedUntil(actor.sessionId);
    return until !== null && until > this.deps.now();
  }

  /** The caller's role on a node it can see. */
  roleOn(actor: Actor, node: NodeRow): AccessRole {
    if (node.owner_id === actor.userId) return 'owner';
    const grants = this.deps.store.permissions.inherited(node.id, actor.userId);
    return grants.some((g) => g.role === 'editor') ? 'editor' : 'viewer';
  }

  /** A folder the caller may add to; `null` (or "root") is the caller's own top level. */
  targetFolder(actor: Caller, parentId: string | null): NodeRow | null {
    if (parentId === null) return null;
    const parent = this.node(actor, parentId, 'write');
    if (parent.type !== 'folder') throw new AppError('invalid_input', 'The parent must be a folder.', { field: 'parent_id' });
    if (parent.in_trash) throw new AppError('in_trash');
    return parent;
  }

  /**
   * For a grantee, the ancestors above what was granted are not theirs to see: the path
   * starts at the highest granted node.
   */
  visiblePath(actor: Actor, path: NodeRow[]): NodeRow[] {
    const target = path[path.length - 1];
    if (!target || target.owner_id === actor.userId) return path;
    const granted = new Set(this.deps.store.permissions.inherited(target.id, actor.userId).map((g) => g.node_id));
    const top = path.findIndex((n) => granted.has(n.id));
    return top < 0 ? [] : path.slice(top);
  }

  /**
   * Who receives events about a node: its owner, everyone granted access to it or above it,
   * everyone in an album holding it, and the partners it is shown to (in the trash or not: who
   * hears of a trashed photo is who saw it). Nobody hears of what is in Private, not even its
   * owner: an event would carry its name to every screen the owner has open, locked or not.
   */
  audienceOf(node: Pick<NodeRow, 'id' | 'owner_id'>): Audience {
    const { permissions, albums, partners } = this.deps.store;
    if (this.deps.store.privateFolders.isInPrivate(node.id)) return { users: [] };
    return {
      users: [
        ...new Set([node.owner_id, ...permissions.grantees(node.id), ...albums.audienceOfNode(node.id), ...partners.viewersOf(node.id)]),
      ],
    };
  }
}

function allows(grants: InheritedGrant[], need: Need): boolean {
  switch (need) {
    case 'read':
      return true;
    case 'write':
      return grants.some((g) => g.role === 'editor');
    case 'modify':
      return grants.some((g) => g.role === 'editor' && g.depth > 0);
    case 'manage':
      return false;
  }
}

/** `parent_id` as clients send it: omitted, null or "root" all mean the top level. */
export function normaliseParentId(parentId: string | null | undefined): string | null {
  return parentId === undefined || parentId === null || parentId === 'root' ? null : parentId;
}
