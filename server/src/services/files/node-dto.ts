import type { Node } from '../../contract/files-responses.ts';
import type { NodeRow } from '../../store/nodes.repo.ts';

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
  return dto;
}
