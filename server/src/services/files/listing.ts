import type { Node, TrashPage } from '../../contract/files-responses.ts';
import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';
import type { GalleryFilter } from '../../store/database/gallery-search.ts';
import type { Keyset, ListedNodeRow, ListScope, SortField } from '../../store/database/nodes.repo.ts';
import { normaliseParentId, type AccessService } from './access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { searchKey } from './node-names.ts';
import { toNodeDto } from './node-dto.ts';
import { pageLimit } from '../common/paging.ts';
import type { SettingsService } from '../server/settings.ts';

export type ListFilter = 'shared' | 'starred' | 'recent' | 'gallery';

/**
 * Whose photos a timeline shows: `mine`, the account's own; `family`, with everything others
 * share with it (folders and files granted, albums it is in, partners' photos from their day).
 */
export type TimelineScope = 'mine' | 'family';

/**
 * How the listing reads Photos' own words (filter=gallery): photos owns what a search and a month
 * mean, the listing only lists; the composition hands it photos' reading, so files never imports photos.
 */
export interface GalleryFilters {
  /** A search in Photos as typed (`q`): null when blank (the whole gallery). */
  search(q: string | undefined): GalleryFilter | null;
  /** `YYYY-MM` as the half-open range of milliseconds the gallery's months are counted in. */
  month(month: string): { from: number; before: number };
}

export interface ListInput {
  parent_id?: string | undefined;
  filter?: ListFilter | undefined;
  query?: string | undefined;
  sort?: SortField | undefined;
  order?: 'asc' | 'desc' | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
  /** `YYYY-MM`: only the gallery items taken in that month (UTC), as GET /nodes/gallery/months counts them. */
  month?: string | undefined;
  /** A search in Photos (with filter=gallery): dates, places, cameras, names. */
  q?: string | undefined;
  /** With filter=gallery: the account's own photos (the default), or its family timeline. */
  scope?: TimelineScope | undefined;
}

/** GET /nodes: a folder's contents or a flat view, sorted and paged by keyset. */
export class ListingService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly settings: SettingsService,
    private readonly gallery: GalleryFilters,
  ) {}

  list(actor: Actor, input: ListInput): Page<Node> {
    if (input.month !== undefined && input.filter !== 'gallery') {
      throw new AppError('invalid_input', 'month goes with filter=gallery.', { field: 'month' });
    }
    if (input.q !== undefined && input.filter !== 'gallery') {
      throw new AppError('invalid_input', 'q searches Photos: it goes with filter=gallery.', { field: 'q' });
    }
    if (input.scope !== undefined && input.filter !== 'gallery') {
      throw new AppError('invalid_input', 'scope chooses whose photos Photos shows: it goes with filter=gallery.', { field: 'scope' });
    }
    const search = input.query?.trim() ? searchKey(input.query.trim()) : null;
    return this.page(this.scopeOf(actor, input, search !== null), search, actor.userId, input, this.gallery.search(input.q));
  }

  /** The children of a folder the caller has already been cleared to read (public links). */
  children(folderId: string, viewerId: string, input: ListInput): Page<Node> {
    return this.page({ kind: 'children', container: folderId }, null, viewerId, input);
  }

  private page(
    scope: ListScope,
    search: string | null,
    viewerId: string,
    input: ListInput,
    gallerySearch: GalleryFilter | null = null,
  ): Page<Node> {
    const sort = input.sort ?? defaultSort(input.filter);
    const desc = (input.order ?? (input.sort === undefined && input.filter ? 'desc' : 'asc')) === 'desc';
    const limit = pageLimit(input.limit);
    const rows = this.deps.store.nodes.list({
      scope,
      search,
      sort,
      desc,
      // Recent and gallery hold files only: ordering by kind there would defeat their partial indexes.
      foldersFirst: scope.kind !== 'gallery' && scope.kind !== 'recent',
      after: decodeListCursor(input.cursor, sort, desc),
      limit: limit + 1,
      viewerId,
      ...(input.month !== undefined && { taken: this.gallery.month(input.month) }),
      ...(gallerySearch && { gallerySearch }),
    });
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    return {
      items: pageRows.map(toNodeDto),
      next_cursor: more ? encodeListCursor(pageRows[pageRows.length - 1]!, sort, desc) : null,
    };
  }

  trash(actor: Actor, input: { limit?: number | undefined; cursor?: string | undefined }): TrashPage {
    const limit = pageLimit(input.limit);
    const after = decodeListCursor(input.cursor, 'trash', true);
    const rows = this.deps.store.nodes.trashPage(actor.userId, after, limit + 1, this.access.privateOpen(actor));
    const more = rows.length > limit;
    const pageRows = more ? rows.slice(0, limit) : rows;
    const last = pageRows[pageRows.length - 1];
    return {
      items: pageRows.map(toNodeDto),
      next_cursor: more && last ? encodeCursor(['trash', true, 0, last.trashed_at!, last.id]) : null,
      retention_days: this.settings.current().trash_retention_days,
    };
  }

  private scopeOf(actor: Actor, input: ListInput, searching: boolean): ListScope {
    switch (input.filter) {
      case 'shared':
        return { kind: 'shared', userId: actor.userId };
      case 'starred':
        return { kind: 'starred', userId: actor.userId };
      case 'recent':
        return { kind: 'recent', ownerId: actor.userId };
      case 'gallery':
        return { kind: 'gallery', scope: this.deps.store.gallery.scope(actor.userId, input.scope === 'family') };
    }
    const parentId = normaliseParentId(input.parent_id);
    if (parentId === null) {
      // A search without a folder looks through everything the account has.
      if (searching && input.parent_id === undefined) return { kind: 'search', ownerId: actor.userId };
      return { kind: 'root', userId: actor.userId };
    }
    const folder = this.access.node(actor, parentId, 'read');
    if (folder.type !== 'folder') throw new AppError('invalid_input', 'parent_id must be a folder.', { field: 'parent_id' });
    if (folder.in_trash) throw new AppError('in_trash');
    return { kind: 'children', container: folder.id };
  }
}

function defaultSort(filter: ListFilter | undefined): SortField {
  if (filter === 'recent') return 'updated';
  if (filter === 'gallery') return 'taken';
  return 'name';
}

type CursorTuple = [string, boolean, number, string | number, string];

function encodeCursor(tuple: CursorTuple): string {
  return Buffer.from(JSON.stringify(tuple)).toString('base64url');
}

function encodeListCursor(row: ListedNodeRow, sort: SortField, desc: boolean): string {
  return encodeCursor([sort, desc, row.type === 'folder' ? 0 : 1, row.sort_value, row.id]);
}

/** A cursor only continues the listing it came from: same sort, same direction. */
function decodeListCursor(cursor: string | undefined, sort: string, desc: boolean): Keyset | null {
  if (cursor === undefined || cursor === '') return null;
  try {
    const tuple = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(tuple) && tuple.length === 5 && tuple[0] === sort && tuple[1] === desc) {
      const [, , kind, value, id] = tuple as CursorTuple;
      if ((kind === 0 || kind === 1) && (typeof value === 'string' || typeof value === 'number') && typeof id === 'string') {
        return { kind, value, id };
      }
    }
  } catch {
    // fall through
  }
  throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
}
