import fs from 'node:fs';
import type { Library } from '../../contract/storage-responses.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import { parseMountSpec, type LibraryRow } from '../../store/database/libraries.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import { coarseSpace } from './coarse-space.ts';

/** Whom a library's figures are for: the owners (every figure), one member (its own files), or every member at once (no one's files). */
export type LibraryViewer = 'admin' | { member: string } | 'members';

export function libraryDto(
  deps: ServiceDeps,
  content: ContentStores,
  library: LibraryRow,
  viewer: LibraryViewer,
  options: { path?: boolean } = {},
): Library {
  const forAdmin = viewer === 'admin';
  const online = content.isOnline(library.id);
  let space = { used: 0, free: 0, total: 0 };
  if (online) {
    try {
      const s = fs.statfsSync(library.path);
      space = { used: (s.blocks - s.bfree) * s.bsize, free: s.bavail * s.bsize, total: s.blocks * s.bsize };
    } catch {
      // Vanished since the last check: the next refresh marks it offline.
    }
  }
  const dto: Library = {
    id: library.id,
    name: library.name,
    kind: library.kind,
    status: online ? 'online' : library.status === 'ejected' ? 'ejected' : 'offline',
    ...(forAdmin ? space : coarseSpace(space)),
    content_bytes:
      viewer === 'admin'
        ? deps.store.libraries.contentBytes(library.id)
        : viewer === 'members'
          ? 0
          : deps.store.libraries.ownContentBytes(library.id, viewer.member),
    default: library.is_default === 1,
  };
  if (forAdmin && options.path !== false) {
    dto.path = library.path;
    const spec = parseMountSpec(library);
    if (spec?.kind === 'pool') dto.members = spec.members.map((m) => ({ device: m.device, uuid: m.uuid, path: m.mount_point }));
  }
  return dto;
}
