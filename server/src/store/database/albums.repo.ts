import {
  ADDER_READS,
  DISABLED,
  ITEM_REACHES_VIEWER,
  LINK_SHOWS,
  OPEN_TO_USER,
  OWNER_PUT_IT,
  SHOWN_BY_ALBUM_TO_USER,
} from './reach/album-reach.ts';
import type { Db, Statement } from './db.ts';
import { COLUMNS, type NodeRow } from './node-rows.ts';

export type AlbumMemberRole = 'viewer' | 'contributor';

export interface AlbumRow {
  id: string;
  owner_id: string;
  name: string;
  cover_node_id: string | null;
  created_at: number;
  updated_at: number;
}

export interface AlbumMemberRow {
  album_id: string;
  user_id: string;
  role: AlbumMemberRole;
  added_by: string;
  created_at: number;
}

/** An item of an album as its reader sees it: the node, who put it there, and what its owner let it reach. */
export interface AlbumItemRow extends NodeRow {
  added_by: string;
  /** Its owner put it there: everyone in the album sees it (else only those who may see it anyway). */
  shared_with_album: number;
  /** The album's links show it. */
  on_links: number;
}

/** One album item as it is stored. */
export interface AlbumItemEntry {
  album_id: string;
  node_id: string;
  added_by: string;
  added_at: number;
  on_links: number;
}

/** What an album holds now (only what is shown): counted for a page of albums at once. */
export interface AlbumSummaryRow {
  album_id: string;
  items: number;
  videos: number;
  first_taken: number | null;
  last_taken: number | null;
  /** The owner's chosen cover is among what is shown. */
  cover_shown: number;
}

export interface AlbumCoverRow {
  album_id: string;
  id: string;
  version: number;
  has_thumbnail: number;
  /** The photo's turn (photo edits), which its cover shows. */
  rotation: number;
}

/** Where a page of albums continues: the last album's `updated_at` and id (newest first). */
export interface AlbumKeyset {
  updatedAt: number;
  id: string;
}

/** Where a page of an album's items continues: the last item's taken time and id (oldest first). */
export interface AlbumItemKeyset {
  taken: number;
  id: string;
}

export type AlbumScope = 'all' | 'mine' | 'shared' | 'contribute';

const SCOPES: Record<AlbumScope, string> = {
  all: OPEN_TO_USER,
  mine: 'a.owner_id = @user',
  shared: `a.id IN (SELECT album_id FROM album_members WHERE user_id = @user) AND a.owner_id NOT IN (${DISABLED})`,
  contribute: `(a.owner_id = @user OR (a.id IN (SELECT album_id FROM album_members WHERE user_id = @user AND role = 'contributor')
    AND a.owner_id NOT IN (${DISABLED})))`,
};

/** Albums, their members and items, and the folders album uploads go to. SQL only: the rules are AlbumService's. */
export class AlbumsRepo {
  private readonly stmts;
  private readonly pages = new Map<AlbumScope, Statement>();

  constructor(private readonly db: Db) {
    this.stmts = {
      insert: db.prepare(`INSERT INTO albums (id, owner_id, name, cover_node_id, created_at, updated_at)
        VALUES (@id, @owner_id, @name, NULL, @created_at, @created_at)`),
      byId: db.prepare('SELECT * FROM albums WHERE id = ?'),
      openTo: db.prepare(`SELECT a.* FROM albums a WHERE a.id = @album AND ${OPEN_TO_USER}`),
      remove: db.prepare('DELETE FROM albums WHERE id = ?'),
      touch: db.prepare('UPDATE albums SET updated_at = @at WHERE id = @id'),
      member: db.prepare('SELECT * FROM album_members WHERE album_id = ? AND user_id = ?'),
      members: db.prepare('SELECT * FROM album_members WHERE album_id = ? ORDER BY created_at, user_id'),
      memberCounts: db.prepare(`SELECT album_id, count(*) AS n FROM album_members
        WHERE album_id IN (SELECT value FROM json_each(@ids)) GROUP BY album_id`),
      upsertMember: db.prepare(`INSERT INTO album_members (album_id, user_id, role, added_by, created_at)
        VALUES (@album_id, @user_id, @role, @added_by, @created_at)
        ON CONFLICT (album_id, user_id) DO UPDATE SET role = excluded.role`),
      removeMember: db.prepare('DELETE FROM album_members WHERE album_id = ? AND user_id = ?'),
      // A photo's owner adding it again gives a new answer about the links, and one put there by
      // someone they shared it with becomes theirs (they choose its album's people now); anyone
      // else's adding it again changes nothing.
      addItem: db.prepare(`INSERT INTO album_items (album_id, node_id, added_by, added_at, on_links)
        VALUES (@album, @node, @by, @at, @on_links)
        ON CONFLICT (album_id, node_id) DO UPDATE SET added_by = excluded.added_by, on_links = excluded.on_links
          WHERE excluded.added_by = (SELECT owner_id FROM nodes WHERE id = excluded.node_id)`),
      setOnLinks: db.prepare('UPDATE album_items SET on_links = @on_links WHERE album_id = @album AND node_id = @node'),
      removeItem: db.prepare('DELETE FROM album_items WHERE album_id = ? AND node_id = ?'),
      itemsAddedBy: db.prepare('SELECT node_id FROM album_items WHERE album_id = ? AND added_by = ?'),
      removeItemsAddedBy: db.prepare('DELETE FROM album_items WHERE album_id = ? AND added_by = ?'),
      item: db.prepare('SELECT album_id, node_id, added_by, added_at, on_links FROM album_items WHERE album_id = ? AND node_id = ?'),
      itemReaches: db.prepare(`SELECT 1 FROM album_items ai JOIN nodes n ON n.id = ai.node_id
        WHERE ai.album_id = @album AND ai.node_id = @node AND ${ITEM_REACHES_VIEWER}`),
      linkShows: db.prepare(`SELECT 1 FROM album_items ai JOIN nodes n ON n.id = ai.node_id
        WHERE ai.album_id = @album AND ai.node_id = @node AND ${LINK_SHOWS}`),
      items: db.prepare(itemsPage(ITEM_REACHES_VIEWER)),
      // A link's visitor is no account: '' stars nothing and owns nothing.
      linkItems: db.prepare(itemsPage(LINK_SHOWS)),
      // One pass over the albums of a page: counts, dates, and whether each chosen cover is shown.
      summaries: db.prepare(`SELECT ai.album_id AS album_id, count(*) AS items,
          sum(n.mime_type LIKE 'video/%') AS videos, min(n.taken_sort) AS first_taken, max(n.taken_sort) AS last_taken,
          max(ai.node_id IS a.cover_node_id) AS cover_shown
        FROM album_items ai JOIN albums a ON a.id = ai.album_id JOIN nodes n ON n.id = ai.node_id
        WHERE ai.album_id IN (SELECT value FROM json_each(@ids)) AND ${ITEM_REACHES_VIEWER}
        GROUP BY ai.album_id`),
      // The newest shown item with a picture, per album: SQLite takes the bare columns from the row of max().
      newestCovers: db.prepare(`SELECT ai.album_id AS album_id, n.id AS id, n.version AS version, n.has_thumbnail AS has_thumbnail,
          n.rotation AS rotation, max(n.taken_sort) AS taken
        FROM album_items ai JOIN nodes n ON n.id = ai.node_id
        WHERE ai.album_id IN (SELECT value FROM json_each(@ids)) AND n.has_thumbnail = 1 AND ${ITEM_REACHES_VIEWER}
        GROUP BY ai.album_id`),
      chosenCovers: db.prepare(`SELECT a.id AS album_id, n.id AS id, n.version AS version, n.has_thumbnail AS has_thumbnail,
          n.rotation AS rotation FROM albums a JOIN nodes n ON n.id = a.cover_node_id WHERE a.id IN (SELECT value FROM json_each(@ids))`),
      // Whether @user reads @node through an album they are in (its owner or a member), nothing else letting them.
      readable: db.prepare(`SELECT 1 FROM nodes n WHERE n.id = @node AND ${SHOWN_BY_ALBUM_TO_USER}`),
      // Everyone an album holding the node shows it to, in the trash or not: who hears of a trashed
      // photo is who saw it before. An item its owner did not put there reaches only its grantees,
      // whom the node's own audience names.
      audienceOfNode: db.prepare(`SELECT a.owner_id AS user_id FROM album_items ai JOIN albums a ON a.id = ai.album_id
          JOIN nodes n ON n.id = ai.node_id
          WHERE ai.node_id = @node AND ${ADDER_READS} AND ${OWNER_PUT_IT}
        UNION SELECT m.user_id FROM album_items ai JOIN album_members m ON m.album_id = ai.album_id
          JOIN albums a ON a.id = ai.album_id JOIN nodes n ON n.id = ai.node_id
          WHERE ai.node_id = @node AND a.owner_id NOT IN (${DISABLED}) AND ${ADDER_READS} AND ${OWNER_PUT_IT}`),
      // Every album holding the node, for its owner (GET /nodes/{id}/appearances), first added first.
      appearances: db.prepare(`SELECT ai.album_id, ai.node_id, ai.added_by, ai.added_at, ai.on_links, a.name AS album_name,
          a.owner_id AS album_owner_id
        FROM album_items ai JOIN albums a ON a.id = ai.album_id WHERE ai.node_id = ? ORDER BY ai.added_at, ai.album_id`),
      albumsHolding: db.prepare('SELECT DISTINCT album_id FROM album_items WHERE node_id = ?'),
      albumsHoldingBelow: db.prepare(`WITH RECURSIVE down(id) AS (
          SELECT id FROM nodes WHERE id = @node
          UNION ALL SELECT n.id FROM nodes n JOIN down ON n.parent_id = down.id)
        SELECT DISTINCT ai.album_id FROM down JOIN album_items ai ON ai.node_id = down.id`),
      uploadFolder: db.prepare('SELECT folder_id, on_links FROM album_upload_folders WHERE album_id = ? AND user_id = ?'),
      setUploadFolder: db.prepare(`INSERT INTO album_upload_folders (album_id, user_id, folder_id, on_links)
        VALUES (@album, @user, @folder, @on_links)
        ON CONFLICT (album_id, user_id) DO UPDATE SET folder_id = excluded.folder_id, on_links = excluded.on_links`),
    };
  }

  insert(row: Omit<AlbumRow, 'cover_node_id' | 'updated_at'>): void {
    this.stmts.insert.run(row);
  }

  byId(id: string): AlbumRow | undefined {
    return this.stmts.byId.get(id) as AlbumRow | undefined;
  }

  /** The album, when the account owns it or is a member of it (and its owner is not disabled). */
  openTo(albumId: string, userId: string): AlbumRow | undefined {
    return this.stmts.openTo.get({ album: albumId, user: userId }) as AlbumRow | undefined;
  }

  update(id: string, fields: Partial<Pick<AlbumRow, 'name' | 'cover_node_id' | 'updated_at'>>): void {
    const keys = Object.keys(fields);
    if (keys.length === 0) return;
    this.db.prepare(`UPDATE albums SET ${keys.map((k) => `${k} = @${k}`).join(', ')} WHERE id = @id`).run({ ...fields, id });
  }

  touch(id: string, at: number): void {
    this.stmts.touch.run({ id, at });
  }

  remove(id: string): void {
    this.stmts.remove.run(id);
  }

  /** A page of albums, most recently changed first, each with the account's role as a member (null: its own). */
  page(
    scope: AlbumScope,
    userId: string,
    after: AlbumKeyset | null,
    limit: number,
  ): (AlbumRow & { member_role: AlbumMemberRole | null })[] {
    let statement = this.pages.get(scope);
    if (!statement) {
      statement = this.db.prepare(`SELECT a.*,
          (SELECT m.role FROM album_members m WHERE m.album_id = a.id AND m.user_id = @user) AS member_role
        FROM albums a WHERE ${SCOPES[scope]}
        AND (@after_at IS NULL OR a.updated_at < @after_at OR (a.updated_at = @after_at AND a.id < @after_id))
        ORDER BY a.updated_at DESC, a.id DESC LIMIT @limit`);
      this.pages.set(scope, statement);
    }
    return statement.all({ user: userId, after_at: after?.updatedAt ?? null, after_id: after?.id ?? null, limit }) as (AlbumRow & {
      member_role: AlbumMemberRole | null;
    })[];
  }

  /** What each album shows `viewerId`: its counts, dates and whether the chosen cover is among it. */
  summaries(albumIds: readonly string[], viewerId: string): Map<string, AlbumSummaryRow> {
    const rows = this.stmts.summaries.all({ ids: JSON.stringify(albumIds), viewer: viewerId }) as AlbumSummaryRow[];
    return new Map(
      rows.map((r) => [
        r.album_id,
        {
          album_id: r.album_id,
          items: Number(r.items),
          videos: Number(r.videos ?? 0),
          first_taken: r.first_taken === null ? null : Number(r.first_taken),
          last_taken: r.last_taken === null ? null : Number(r.last_taken),
          cover_shown: Number(r.cover_shown ?? 0),
        },
      ]),
    );
  }

  /** Per album: the newest item shown to `viewerId` that has a picture. */
  newestCovers(albumIds: readonly string[], viewerId: string): Map<string, AlbumCoverRow> {
    return coverMap(this.stmts.newestCovers.all({ ids: JSON.stringify(albumIds), viewer: viewerId }) as AlbumCoverRow[]);
  }

  /** Per album with one: the node its owner chose as its cover (whether it is still shown is the summary's). */
  chosenCovers(albumIds: readonly string[]): Map<string, AlbumCoverRow> {
    return coverMap(this.stmts.chosenCovers.all({ ids: JSON.stringify(albumIds) }) as AlbumCoverRow[]);
  }

  member(albumId: string, userId: string): AlbumMemberRow | undefined {
    return this.stmts.member.get(albumId, userId) as AlbumMemberRow | undefined;
  }

  members(albumId: string): AlbumMemberRow[] {
    return this.stmts.members.all(albumId) as AlbumMemberRow[];
  }

  /** How many members each album has (an album without any is left out). */
  memberCounts(albumIds: readonly string[]): Map<string, number> {
    const rows = this.stmts.memberCounts.all({ ids: JSON.stringify(albumIds) }) as { album_id: string; n: number }[];
    return new Map(rows.map((r) => [r.album_id, Number(r.n)]));
  }

  /** The album's owner and members. */
  audience(album: Pick<AlbumRow, 'id' | 'owner_id'>): string[] {
    return [album.owner_id, ...this.members(album.id).map((m) => m.user_id)];
  }

  upsertMember(row: AlbumMemberRow): void {
    this.stmts.upsertMember.run(row);
  }

  removeMember(albumId: string, userId: string): boolean {
    return Number(this.stmts.removeMember.run(albumId, userId).changes) === 1;
  }

  /**
   * Adds what is not there yet, with `onLinks` (the album's links may show it): the ids it added,
   * and how many of those there already changed (their photo owner's new answer, see addItem).
   */
  addItems(
    albumId: string,
    nodeIds: readonly string[],
    addedBy: string,
    at: number,
    onLinks: boolean,
  ): { added: string[]; changed: number } {
    const added: string[] = [];
    let changed = 0;
    for (const node of nodeIds) {
      const before = this.item(albumId, node);
      this.stmts.addItem.run({ album: albumId, node, by: addedBy, at, on_links: onLinks ? 1 : 0 });
      if (!before) added.push(node);
      else {
        const after = this.item(albumId, node)!;
        if (after.added_by !== before.added_by || after.on_links !== before.on_links) changed += 1;
      }
    }
    return { added, changed };
  }

  /** Whether the album's links may show the item (its owner's answer). */
  setOnLinks(albumId: string, nodeId: string, onLinks: boolean): void {
    this.stmts.setOnLinks.run({ album: albumId, node: nodeId, on_links: onLinks ? 1 : 0 });
  }

  removeItem(albumId: string, nodeId: string): boolean {
    return Number(this.stmts.removeItem.run(albumId, nodeId).changes) === 1;
  }

  item(albumId: string, nodeId: string): AlbumItemEntry | undefined {
    return this.stmts.item.get(albumId, nodeId) as AlbumItemEntry | undefined;
  }

  /** The item is in the album and shown there to `viewerId`. */
  itemReaches(albumId: string, nodeId: string, viewerId: string): boolean {
    return this.stmts.itemReaches.get({ album: albumId, node: nodeId, viewer: viewerId }) !== undefined;
  }

  /** The item is in the album and its links show it. */
  linkShows(albumId: string, nodeId: string): boolean {
    return this.stmts.linkShows.get({ album: albumId, node: nodeId }) !== undefined;
  }

  /** The nodes one account added to the album. */
  itemsAddedBy(albumId: string, userId: string): string[] {
    return (this.stmts.itemsAddedBy.all(albumId, userId) as { node_id: string }[]).map((r) => r.node_id);
  }

  /** Removes what one account added (it left, or was removed). */
  removeItemsAddedBy(albumId: string, userId: string): void {
    this.stmts.removeItemsAddedBy.run(albumId, userId);
  }

  /** A page of what the album shows `viewerId` (null: what its links show), oldest taken first. */
  items(albumId: string, viewerId: string | null, after: AlbumItemKeyset | null, limit: number): AlbumItemRow[] {
    return (viewerId === null ? this.stmts.linkItems : this.stmts.items).all({
      album: albumId,
      viewer: viewerId ?? '',
      after_taken: after?.taken ?? null,
      after_id: after?.id ?? null,
      limit,
    }) as AlbumItemRow[];
  }

  /** Every album holding the node, whoever put it there: its owner's view of where it appears. */
  appearances(nodeId: string): (AlbumItemEntry & { album_name: string; album_owner_id: string })[] {
    return this.stmts.appearances.all(nodeId) as (AlbumItemEntry & { album_name: string; album_owner_id: string })[];
  }

  /** Whether the account reads the node through an album it is in. */
  readable(nodeId: string, userId: string): boolean {
    return this.stmts.readable.get({ node: nodeId, user: userId }) !== undefined;
  }

  /** The owners and members of the albums that hold the node. */
  audienceOfNode(nodeId: string): string[] {
    return (this.stmts.audienceOfNode.all({ node: nodeId }) as { user_id: string }[]).map((r) => r.user_id);
  }

  /** The albums holding the node, or for a folder anything below it. */
  albumsHolding(nodeId: string, folder: boolean): string[] {
    const rows = folder ? this.stmts.albumsHoldingBelow.all({ node: nodeId }) : this.stmts.albumsHolding.all(nodeId);
    return (rows as { album_id: string }[]).map((r) => r.album_id);
  }

  /** The account's folder for the album's uploads, and whether the album's links may show what arrives there. */
  uploadFolder(albumId: string, userId: string): { folder_id: string; on_links: number } | undefined {
    return this.stmts.uploadFolder.get(albumId, userId) as { folder_id: string; on_links: number } | undefined;
  }

  setUploadFolder(albumId: string, userId: string, folderId: string, onLinks: boolean): void {
    this.stmts.setUploadFolder.run({ album: albumId, user: userId, folder: folderId, on_links: onLinks ? 1 : 0 });
  }
}

/** A page of an album's items, oldest taken first, with `reaches` saying which (ITEM_REACHES_VIEWER or LINK_SHOWS). */
function itemsPage(reaches: string): string {
  return `SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @viewer) AS starred,
      n.owner_id != @viewer AS shared, ai.added_by AS added_by, ${OWNER_PUT_IT} AS shared_with_album, ai.on_links AS on_links
    FROM album_items ai JOIN nodes n ON n.id = ai.node_id
    WHERE ai.album_id = @album AND ${reaches}
      AND (@after_taken IS NULL OR n.taken_sort > @after_taken OR (n.taken_sort = @after_taken AND n.id > @after_id))
    ORDER BY n.taken_sort, n.id LIMIT @limit`;
}

function coverMap(rows: AlbumCoverRow[]): Map<string, AlbumCoverRow> {
  return new Map(rows.map((r) => [r.album_id, { ...r, version: Number(r.version), has_thumbnail: Number(r.has_thumbnail) }]));
}
