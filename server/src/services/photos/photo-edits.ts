import type { PhotoEdits } from '../../contract/photo-edits-responses.ts';
import { AppError } from '../../app-error.ts';
import { countryWords, sharedPlaces, type Places } from '../../media/places.ts';
import { mediaSearchText } from '../../store/database/gallery-search.ts';
import type { NodeRow } from '../../store/database/node-rows.ts';
import type { PhotoEditRow, ShownFacts } from '../../store/database/photo-edits.repo.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { AccessService } from '../files/access.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { searchKey } from '../files/node-names.ts';

/** What a family member corrects: each part optional; a place of null says there is none. */
export interface PhotoEditInput {
  rotation?: number | undefined;
  taken_at?: number | undefined;
  taken_offset?: number | null | undefined;
  place?: { name?: string | undefined; latitude?: number | undefined; longitude?: number | undefined } | null | undefined;
}

/** The first photograph is from 1826: an earlier date is a typing slip. */
const EARLIEST = Date.UTC(1826, 0, 1);
/** A camera's clock may run a little ahead of the server's; a day more is a mistake. */
const AHEAD_MS = 24 * 60 * 60_000;

/**
 * A photo's edits, kept beside the original: a quarter turn, a corrected date, a corrected place.
 * The file is never rewritten (a download is the original), and what it says is kept in
 * photo_edits so a revert puts it back. The node's own columns carry what is shown, so the
 * timeline's months, search and albums follow at once, and everyone who sees it hears
 * `node.updated`. Whoever may change the photo (its owner, an editor) may edit it; someone who
 * only looks (an album member, a partner, a viewer) is refused with 403, anyone else 404.
 */
export class PhotoEditService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly places: Places = sharedPlaces,
  ) {}

  /** Its edits as they stand; anyone who sees the photo may read them. */
  get(actor: Actor, nodeId: string): PhotoEdits {
    const node = this.photo(actor, nodeId, 'read');
    return this.answer(node, this.deps.store.photoEdits.get(node.id));
  }

  async edit(actor: Actor, nodeId: string, input: PhotoEditInput): Promise<PhotoEdits> {
    let node = this.photo(actor, nodeId, 'write');
    const rotation = input.rotation === undefined ? undefined : quarterTurn(input.rotation);
    if (rotation && node.mime_type?.startsWith('video/')) throw new AppError('cannot_rotate_video', undefined, { field: 'rotation' });
    if (input.taken_at !== undefined) checkTaken(input.taken_at, input.taken_offset, this.deps.now());
    // Looked up before the transaction: the town table may need loading.
    const place = input.place === undefined ? undefined : await this.placeOf(input.place);
    const { store } = this.deps;
    store.transaction(() => {
      // Read again: another edit may have landed while the place was looked up.
      node = store.nodes.byId(node.id, actor.userId) ?? node;
      const before = store.photoEdits.get(node.id) ?? fileSays(node, actor.userId, this.deps.now());
      const shown = shownOf(node);
      if (rotation !== undefined) shown.rotation = rotation;
      if (input.taken_at !== undefined) {
        shown.taken_at = input.taken_at;
        shown.taken_offset = input.taken_offset === undefined ? (node.taken_at === null ? null : node.taken_offset) : input.taken_offset;
        shown.taken_sort = shown.taken_at + (shown.taken_offset ?? 0) * 60_000;
      }
      if (place !== undefined) {
        shown.latitude = place?.latitude ?? null;
        shown.longitude = place?.longitude ?? null;
        shown.place_town = place?.town ?? null;
        shown.place_country = place?.country ?? null;
      }
      shown.media_search = searchWords(shown, node);
      const row: PhotoEditRow = {
        ...before,
        rotation: shown.rotation,
        taken_edited: before.taken_edited || input.taken_at !== undefined ? 1 : 0,
        place_edited: before.place_edited || place !== undefined ? 1 : 0,
        edit_taken_at: shown.taken_at,
        edit_taken_offset: shown.taken_offset,
        edit_taken_sort: shown.taken_sort,
        edit_latitude: shown.latitude,
        edit_longitude: shown.longitude,
        edit_place_town: shown.place_town,
        edit_place_country: shown.place_country,
        edit_media_search: shown.media_search,
        edited_by: actor.userId,
        edited_at: this.deps.now(),
      };
      store.photoEdits.show(node.id, shown);
      if (row.rotation === 0 && !row.taken_edited && !row.place_edited) store.photoEdits.remove(node.id);
      else store.photoEdits.save(row);
    });
    return this.changed(actor, node.id);
  }

  /** Back to what the file says: no turn, its own date and place. */
  revert(actor: Actor, nodeId: string): PhotoEdits {
    const node = this.photo(actor, nodeId, 'write');
    const { store } = this.deps;
    const row = store.photoEdits.get(node.id);
    if (!row) return this.answer(node, undefined);
    store.transaction(() => {
      store.photoEdits.show(node.id, {
        rotation: 0,
        taken_at: row.file_taken_at,
        taken_offset: row.file_taken_offset,
        taken_sort: row.file_taken_sort ?? node.created_at,
        latitude: row.file_latitude,
        longitude: row.file_longitude,
        place_town: row.file_place_town,
        place_country: row.file_place_country,
        media_search: searchWords({ place_town: row.file_place_town, place_country: row.file_place_country }, node),
      });
      store.photoEdits.remove(node.id);
    });
    return this.changed(actor, node.id);
  }

  private photo(actor: Actor, nodeId: string, need: 'read' | 'write'): NodeRow {
    const node = this.access.node(actor, nodeId, need);
    if (node.type !== 'file' || !node.is_media) throw new AppError('not_a_photo');
    return node;
  }

  private changed(actor: Actor, nodeId: string): PhotoEdits {
    const fresh = this.deps.store.nodes.byId(nodeId, actor.userId)!;
    const dto = toNodeDto(fresh);
    // Each reader's own view (starred, shared) is theirs to fetch: the timeline refetches on it.
    this.deps.bus.publish('node.updated', { node: dto }, this.access.audienceOf(fresh));
    return this.answer(fresh, this.deps.store.photoEdits.get(nodeId));
  }

  private answer(node: NodeRow, row: PhotoEditRow | undefined): PhotoEdits {
    const dto = toNodeDto(node);
    const original: PhotoEdits['original'] = {};
    const takenAt = row ? row.file_taken_at : node.taken_at;
    const offset = row ? row.file_taken_offset : node.taken_offset;
    if (takenAt !== null) original.taken_at = takenAt;
    if (takenAt !== null && offset !== null) original.taken_offset = offset;
    const lat = row ? row.file_latitude : node.latitude;
    const lon = row ? row.file_longitude : node.longitude;
    if (lat !== null && lon !== null) {
      const town = row ? row.file_place_town : node.place_town;
      const country = row ? row.file_place_country : node.place_country;
      original.place = {
        latitude: lat,
        longitude: lon,
        ...(town !== null && { town }),
        ...(country !== null && { country_code: country }),
      };
    }
    return { node: dto, rotation: node.rotation, taken_edited: row?.taken_edited === 1, place_edited: row?.place_edited === 1, original };
  }

  /** A typed town's position and country, or a position's town and country; a name given wins as the town's. */
  private async placeOf(input: NonNullable<PhotoEditInput['place']> | null) {
    if (input === null) return null;
    const name = input.name?.trim() || undefined;
    const { latitude, longitude } = input;
    if ((latitude === undefined) !== (longitude === undefined) || (latitude === undefined && !name))
      throw new AppError('invalid_input', 'A place is a town’s name, or a latitude with a longitude.', { field: 'place' });
    if (latitude !== undefined && longitude !== undefined) {
      if (!(Math.abs(latitude) <= 90) || !(Math.abs(longitude) <= 180))
        throw new AppError('place_out_of_range', undefined, { field: 'place' });
      const found = await this.places.placeOf(latitude, longitude);
      return { latitude, longitude, town: name ?? found?.town ?? null, country: found?.country ?? null };
    }
    const town = await this.places.townNamed(name!);
    if (!town) throw new AppError('unknown_place', undefined, { field: 'place' });
    return { latitude: round5(town.latitude), longitude: round5(town.longitude), town: town.town, country: town.country };
  }
}

function quarterTurn(degrees: number): number {
  if (!Number.isInteger(degrees) || degrees % 90 !== 0) throw new AppError('invalid_rotation', undefined, { field: 'rotation' });
  return ((degrees % 360) + 360) % 360;
}

function checkTaken(takenAt: number, offset: number | null | undefined, now: number): void {
  if (!Number.isInteger(takenAt) || takenAt < EARLIEST)
    throw new AppError('invalid_input', 'That date is before photographs existed.', { field: 'taken_at' });
  if (takenAt > now + AHEAD_MS) throw new AppError('taken_in_future', undefined, { field: 'taken_at' });
  if (offset !== undefined && offset !== null && (!Number.isInteger(offset) || Math.abs(offset) > 14 * 60))
    throw new AppError('invalid_input', 'A time zone is at most 14 hours from UTC.', { field: 'taken_offset' });
}

/** The columns shown now, as the starting point of an edit. */
function shownOf(node: NodeRow): ShownFacts {
  return {
    rotation: node.rotation,
    taken_at: node.taken_at,
    taken_offset: node.taken_offset,
    taken_sort: node.taken_sort,
    latitude: node.latitude,
    longitude: node.longitude,
    place_town: node.place_town,
    place_country: node.place_country,
    media_search: null,
  };
}

/** A photo's first edit keeps what its file says (the node's columns until now). */
function fileSays(node: NodeRow, by: string, at: number): PhotoEditRow {
  return {
    node_id: node.id,
    rotation: 0,
    taken_edited: 0,
    place_edited: 0,
    file_taken_at: node.taken_at,
    file_taken_offset: node.taken_offset,
    file_taken_sort: node.taken_sort,
    file_latitude: node.latitude,
    file_longitude: node.longitude,
    file_place_town: node.place_town,
    file_place_country: node.place_country,
    edit_taken_at: null,
    edit_taken_offset: null,
    edit_taken_sort: null,
    edit_latitude: null,
    edit_longitude: null,
    edit_place_town: null,
    edit_place_country: null,
    edit_media_search: null,
    edited_by: by,
    edited_at: at,
  };
}

/** The words search finds it by, as the media worker writes them: town, country, camera. */
function searchWords(shown: Pick<ShownFacts, 'place_town' | 'place_country'>, node: NodeRow): string | null {
  const words = [shown.place_town, shown.place_country && countryWords(shown.place_country), node.camera_make, node.camera_model]
    .filter(Boolean)
    .join(' ');
  return mediaSearchText(searchKey(words));
}

function round5(value: number): number {
  return Math.round(value * 1e5) / 1e5;
}
