import type { MediaCamera, MediaPlace, Node } from '../../contract/files-responses.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';

export function toNodeDto(row: NodeRow): Node {
  const dto: Node = {
    id: row.id,
    type: row.type,
    name: row.name,
    parent_id: row.parent_id,
    owner_id: row.owner_id,
    size: row.size,
    mime_type: row.mime_type,
    created_at: row.created_at,
    updated_at: row.updated_at,
    color: row.color,
    starred: row.starred === 1,
    shared: row.shared === 1,
    trashed_at: row.trashed_at,
    version: row.version,
    has_thumbnail: row.has_thumbnail === 1,
  };
  if (row.image_width !== null) dto.image_width = row.image_width;
  if (row.image_height !== null) dto.image_height = row.image_height;
  if (row.taken_at !== null) dto.taken_at = row.taken_at;
  if (row.taken_at !== null && row.taken_offset !== null) dto.taken_offset = row.taken_offset;
  if (row.duration_ms !== null) dto.duration_ms = row.duration_ms;
  const place = placeOf(row);
  if (place) dto.place = place;
  const camera = cameraOf(row);
  if (camera) dto.camera = camera;
  if (row.rotation) dto.rotation = row.rotation;
  return dto;
}

function placeOf(row: NodeRow): MediaPlace | null {
  if (row.latitude === null || row.longitude === null) return null;
  const place: MediaPlace = { latitude: row.latitude, longitude: row.longitude };
  if (row.place_town !== null) place.town = row.place_town;
  if (row.place_country !== null) place.country_code = row.place_country;
  return place;
}

function cameraOf(row: NodeRow): MediaCamera | null {
  const fields: [keyof MediaCamera, string | number | null][] = [
    ['make', row.camera_make],
    ['model', row.camera_model],
    ['lens', row.lens],
    ['f_number', row.f_number],
    ['exposure_time', row.exposure_time],
    ['iso', row.iso],
    ['focal_length', row.focal_length],
  ];
  const present = fields.filter(([, value]) => value !== null);
  return present.length > 0 ? (Object.fromEntries(present) as MediaCamera) : null;
}
