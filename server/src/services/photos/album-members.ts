import type { AlbumMember, AlbumMemberRole } from '../../contract/albums-responses.ts';
import { AppError } from '../../app-error.ts';
import type { AlbumMemberRow } from '../../store/database/albums.repo.ts';
import type { AlbumAccess } from './album-access.ts';
import type { AlbumService } from './albums.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * Who an album is shared with. The owner invites family members as viewers or contributors,
 * changes their role and removes them; a member may leave. Whoever leaves takes what they
 * added with them (their photos were shared with this album's people, not with whoever stays
 * behind), and loses at once everything they saw only through it.
 */
export class AlbumMemberService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly albums: AlbumAccess,
    private readonly albumService: AlbumService,
  ) {}

  /** The members (the owner is the album's `owner_id`), first invited first; anyone in it may look. */
  list(actor: Actor, albumId: string): AlbumMember[] {
    const { album } = this.albums.open(actor, albumId);
    return this.deps.store.albums.members(album.id).map((m) => this.toMember(m));
  }

  /** Invites someone, or changes the role of someone invited before. */
  invite(actor: Actor, albumId: string, input: { user_id: string; role: AlbumMemberRole }): AlbumMember {
    const album = this.albums.own(actor, albumId);
    if (input.user_id === album.owner_id) throw new AppError('cannot_share_with_owner', undefined, { field: 'user_id' });
    const invited = this.deps.store.users.byId(input.user_id);
    if (!invited || invited.disabled) throw new AppError('unknown_user', undefined, { field: 'user_id' });
    const { store } = this.deps;
    store.albums.upsertMember({
      album_id: album.id,
      user_id: invited.id,
      role: input.role,
      added_by: actor.userId,
      created_at: this.deps.now(),
    });
    // The new member is in the audience now: their Albums page lists it at once.
    this.albums.announce(album);
    // A contributor made a viewer keeps what they added: they shared it with these people, and may still take it out.
    return this.toMember(store.albums.member(album.id, invited.id)!);
  }

  /** The owner removes someone, or a member leaves. Effective at once, for every request and event after. */
  remove(actor: Actor, albumId: string, userId: string): void {
    const { album, role } = this.albums.open(actor, albumId);
    if (role !== 'owner' && userId !== actor.userId) throw new AppError('forbidden', 'Only the owner of the album can remove someone.');
    const { store } = this.deps;
    const audience = store.albums.audience(album);
    // What each account saw of it before: whoever no longer reads one of these hears so.
    const theirs = store.albums.itemsAddedBy(album.id, userId);
    const before = theirs.map((nodeId) => ({ nodeId, seenBy: audience.filter((u) => u !== userId && this.albumService.reads(u, nodeId)) }));
    store.transaction(() => {
      if (!store.albums.removeMember(album.id, userId)) throw new AppError('not_found');
      store.albums.removeItemsAddedBy(album.id, userId);
      if (theirs.length > 0) store.albums.touch(album.id, this.deps.now());
    });
    this.deps.bus.publish('album.deleted', { album_id: album.id, access_lost: true }, { users: [userId] });
    this.albums.announce(album);
    for (const { nodeId, seenBy } of before) this.albumService.tellLost(nodeId, seenBy);
  }

  private toMember(row: AlbumMemberRow): AlbumMember {
    const user = this.deps.store.users.byId(row.user_id);
    return {
      user_id: row.user_id,
      name: user ? (user.display_name ?? user.username) : 'Unknown',
      avatar_seed: user?.avatar_seed ?? '',
      role: row.role,
      created_at: row.created_at,
    };
  }
}
