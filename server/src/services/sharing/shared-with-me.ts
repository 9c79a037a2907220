import { AppError } from '../../app-error.ts';
import type { Page } from '../../contract/page.ts';
import type { SharedWithMeItem } from '../../contract/shared-with-me-responses.ts';
import type { SharedWayRow } from '../../store/database/shared-with-me.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { toPublicUser } from '../identity/user-dto.ts';
import type { AlbumService } from '../photos/albums.ts';

/**
 * Everything that reaches an account from someone else, in one list (the Shared page): the
 * files and folders shared with it, the albums it is in, and the partners whose photos it sees,
 * newest first by when each was shared with it. Only what the account may open now is listed:
 * the rows are the same ones its access checks read (SharedWithMeRepo).
 */
export class SharedWithMeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly albums: Pick<AlbumService, 'toAlbum'>,
  ) {}

  list(actor: Actor, request: PageRequest): Page<SharedWithMeItem> {
    const { store } = this.deps;
    const page = keysetPage(
      request,
      (after, limit) => store.sharedWithMe.page(actor.userId, after === null ? null : parseKey(after), limit),
      (row) => `${row.shared_at}|${row.sort_key}`,
      (row) => row,
    );
    return { items: page.items.flatMap((row) => this.toItem(actor, row) ?? []), next_cursor: page.next_cursor };
  }

  private toItem(actor: Actor, row: SharedWayRow): SharedWithMeItem | null {
    const { store } = this.deps;
    const by = store.users.byId(row.by_id);
    const sharedBy = by ? toPublicUser(by) : { id: row.by_id, name: 'Someone in the family', avatar_seed: '' };
    const base = { id: row.id, shared_by: sharedBy, shared_at: row.shared_at, node: null, album: null, since: null };
    if (row.kind === 'grant') {
      const node = store.nodes.byId(row.id, actor.userId);
      if (!node) return null;
      const role = row.role === 'editor' ? 'editor' : 'viewer';
      return { ...base, kind: node.type, name: node.name, role, node: toNodeDto(node) };
    }
    if (row.kind === 'album') {
      const album = store.albums.byId(row.id);
      if (!album) return null;
      const role = row.role === 'contributor' ? 'contributor' : 'viewer';
      return { ...base, kind: 'album', name: album.name, role, album: this.albums.toAlbum(album, role, actor.userId) };
    }
    const since = row.taken_from === null ? null : new Date(Number(row.taken_from)).toISOString().slice(0, 10);
    return { ...base, kind: 'partner', name: sharedBy.name, role: 'viewer', since };
  }
}

/** A cursor's key: "<shared_at>|<sort key>"; anything else is 400 `invalid_cursor`. */
function parseKey(key: string): { at: number; key: string } {
  const bar = key.indexOf('|');
  const at = Number(key.slice(0, bar));
  if (bar <= 0 || !Number.isSafeInteger(at)) throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
  return { at, key: key.slice(bar + 1) };
}
