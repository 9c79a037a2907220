import type { AlbumMember, AlbumMemberRestored, AlbumMemberRole } from '../../contract/albums-responses.ts';
import { AppError } from '../../app-error.ts';
import type { AlbumMemberRow } from '../../store/database/albums.repo.ts';
import type { AlbumAccess } from './album-access.ts';
import type { AlbumService } from './albums.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

/**
 * Who an album is shared with. The owner invites family members as viewers or contributors,
 * changes their role and removes them; a member may leave. Whoever leaves takes what they
 * added with them (their photos were shared with this album's people, not with whoever stays
 * behind), and loses at once everything they saw only through it. Their files stay in their own
 * folders. The owner may undo a removal for a while (config albumUndoMs): they come back with
 * their role and their photos, as they were.
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
    const counts = this.deps.store.albumRemovals.addedCounts(album.id);
    return this.deps.store.albums.members(album.id).map((m) => this.toMember(m, counts));
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
      const member = store.albums.member(album.id, userId);
      if (!member) throw new AppError('not_found');
      // Only the owner's removal can be undone: someone who left chose to.
      if (userId !== actor.userId) store.albumRemovals.keep({ ...member, member_since: member.created_at, removed_at: this.deps.now() });
      store.albums.removeMember(album.id, userId);
      store.albums.removeItemsAddedBy(album.id, userId);
      if (theirs.length > 0) store.albums.touch(album.id, this.deps.now());
    });
    this.deps.bus.publish('album.deleted', { album_id: album.id, access_lost: true }, { users: [userId] });
    this.albums.announce(album);
    for (const { nodeId, seenBy } of before) this.albumService.tellLost(nodeId, seenBy);
  }

  /**
   * Undoes the owner's removal of `userId` within the window: they are a member again with the
   * role they had, and the photos they had added are back (their order is their taken time, and a
   * chosen cover among them is the cover again, since the album kept it). Everyone in the album,
   * and they, fetch it again. Too late, or never removed: 410 undo_too_late.
   */
  restore(actor: Actor, albumId: string, userId: string): AlbumMemberRestored {
    const album = this.albums.own(actor, albumId);
    const { store } = this.deps;
    const removal = store.albumRemovals.get(album.id, userId);
    if (!removal || removal.removed_at + this.deps.config.albumUndoMs < this.deps.now()) throw new AppError('undo_too_late');
    const user = store.users.byId(userId);
    if (!user || user.disabled) throw new AppError('unknown_user', undefined, { field: 'user_id' });
    const restored = store.transaction(() => {
      // Invited again meanwhile: the role given since stands.
      if (!store.albums.member(album.id, userId)) store.albums.upsertMember({ ...removal, created_at: removal.member_since });
      const back = store.albumRemovals.putBack(album.id, userId);
      store.albumRemovals.forget(album.id, userId);
      if (back > 0) store.albums.touch(album.id, this.deps.now());
      return back;
    });
    this.albums.announce(album);
    const member = this.toMember(store.albums.member(album.id, userId)!, store.albumRemovals.addedCounts(album.id));
    return { member, photos_restored: restored };
  }

  /** Forgets removals whose undo window is over (maintenance). */
  forgetOldRemovals(): number {
    return this.deps.store.albumRemovals.forgetBefore(this.deps.now() - this.deps.config.albumUndoMs);
  }

  private toMember(row: AlbumMemberRow, counts = this.deps.store.albumRemovals.addedCounts(row.album_id)): AlbumMember {
    const user = this.deps.store.users.byId(row.user_id);
    return {
      user_id: row.user_id,
      name: user ? (user.display_name ?? user.username) : 'Unknown',
      avatar_seed: user?.avatar_seed ?? '',
      role: row.role,
      created_at: row.created_at,
      photos_added: counts.get(row.user_id) ?? 0,
    };
  }
}
