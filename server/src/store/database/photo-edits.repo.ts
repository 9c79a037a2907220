import type { Db } from './db.ts';

/** A photo's edits and what its file said before them (migration 24). */
export interface PhotoEditRow {
  node_id: string;
  rotation: number;
  taken_edited: number;
  place_edited: number;
  file_taken_at: number | null;
  file_taken_offset: number | null;
  file_taken_sort: number | null;
  file_latitude: number | null;
  file_longitude: number | null;
  file_place_town: string | null;
  file_place_country: string | null;
  edit_taken_at: number | null;
  edit_taken_offset: number | null;
  edit_taken_sort: number | null;
  edit_latitude: number | null;
  edit_longitude: number | null;
  edit_place_town: string | null;
  edit_place_country: string | null;
  edit_media_search: string | null;
  edited_by: string;
  edited_at: number;
}

/** What a node shows: its own columns, written from the file's facts or from an edit. */
export interface ShownFacts {
  rotation: number;
  taken_at: number | null;
  taken_offset: number | null;
  taken_sort: number;
  latitude: number | null;
  longitude: number | null;
  place_town: string | null;
  place_country: string | null;
  media_search: string | null;
}

/** Photo edits kept beside the original (SQL only). */
export class PhotoEditsRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare('SELECT * FROM photo_edits WHERE node_id = ?'),
      save: db.prepare(`INSERT OR REPLACE INTO photo_edits (node_id, rotation, taken_edited, place_edited, file_taken_at,
          file_taken_offset, file_taken_sort, file_latitude, file_longitude, file_place_town, file_place_country,
          edit_taken_at, edit_taken_offset, edit_taken_sort, edit_latitude, edit_longitude, edit_place_town, edit_place_country,
          edit_media_search, edited_by, edited_at)
        VALUES (@node_id, @rotation, @taken_edited, @place_edited, @file_taken_at, @file_taken_offset, @file_taken_sort,
          @file_latitude, @file_longitude, @file_place_town, @file_place_country, @edit_taken_at, @edit_taken_offset, @edit_taken_sort, @edit_latitude, @edit_longitude,
          @edit_place_town, @edit_place_country, @edit_media_search, @edited_by, @edited_at)`),
      remove: db.prepare('DELETE FROM photo_edits WHERE node_id = ?'),
      // taken_sort moves the photo in every timeline and album at once (album_items follow it by trigger).
      show: db.prepare(`UPDATE nodes SET rotation = @rotation, taken_at = @taken_at, taken_offset = @taken_offset,
          taken_sort = @taken_sort, latitude = @latitude, longitude = @longitude, place_town = @place_town,
          place_country = @place_country, media_search = @media_search
        WHERE id = @node_id`),
    };
  }

  get(nodeId: string): PhotoEditRow | undefined {
    return this.stmts.get.get(nodeId) as PhotoEditRow | undefined;
  }

  save(row: PhotoEditRow): void {
    this.stmts.save.run(row);
  }

  remove(nodeId: string): void {
    this.stmts.remove.run(nodeId);
  }

  /** Writes what the node shows (the caller's transaction holds the edit beside it). */
  show(nodeId: string, facts: ShownFacts): void {
    this.stmts.show.run({ ...facts, node_id: nodeId });
  }
}
