import type { AlbumRole } from '../../contract/albums-responses.ts';
import { AppError } from '../../app-error.ts';
import type { Audience } from '../../events/bus.ts';
import type { AlbumRow } from '../../store/database/albums.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';

export interface OpenAlbum {
  album: AlbumRow;
  role: AlbumRole;
}

/**
 * Who may do what with an album: its owner everything; a contributor adds, and removes what
 * they added; a viewer looks. An album the caller is not in answers 404, as a node does:
 * whether it exists is not theirs to know. A disabled owner's albums are suspended for their
 * members, as their grants are.
 */
export class AlbumAccess {
  constructor(private readonly deps: ServiceDeps) {}

  open(actor: Pick<Actor, 'userId'>, albumId: string): OpenAlbum {
    const album = this.deps.store.albums.openTo(albumId, actor.userId);
    if (!album) throw new AppError('not_found');
    if (album.owner_id === actor.userId) return { album, role: 'owner' };
    return { album, role: this.deps.store.albums.member(album.id, actor.userId)?.role ?? 'viewer' };
  }

  /** Renaming, the cover, deleting and sharing: its owner's alone. */
  own(actor: Pick<Actor, 'userId'>, albumId: string): AlbumRow {
    const { album, role } = this.open(actor, albumId);
    if (role !== 'owner') throw new AppError('forbidden', 'Only the owner of the album can do that.');
    return album;
  }

  /** Adding to it: its owner and contributors. */
  contribute(actor: Pick<Actor, 'userId'>, albumId: string): OpenAlbum {
    const open = this.open(actor, albumId);
    if (open.role === 'viewer') throw new AppError('album_viewer');
    return open;
  }

  audience(album: Pick<AlbumRow, 'id' | 'owner_id'>): Audience {
    return { users: this.deps.store.albums.audience(album) };
  }

  /** Everyone in the album fetches it again. */
  announce(album: Pick<AlbumRow, 'id' | 'owner_id'>): void {
    this.deps.bus.publish('album.changed', { album_id: album.id }, this.audience(album));
  }
}
