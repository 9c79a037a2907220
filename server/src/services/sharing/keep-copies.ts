import type { Node } from '../../contract/files-responses.ts';
import { AppError } from '../../app-error.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import type { AccessService } from '../files/access.ts';
import type { FileService } from '../files/files.ts';
import { containerOf, type NodeService } from '../files/nodes.ts';
import { nameKey } from '../files/node-names.ts';
import { toNodeDto } from '../files/node-dto.ts';
import type { LinkCredentials, PublicShareService } from './public-shares.ts';

/** The folder of the caller's own files where kept copies go, made at the first one. */
export const KEPT_FOLDER = 'Kept copies';

/**
 * "Keep a copy": a photo (or any file) someone shared with the caller, through an album, a
 * partner, a grant or a link opened while signed in, becomes the caller's own, in their
 * "Kept copies" folder under its own name. Nothing is downloaded or sent again: the copy is a
 * new file whose version refers to the same content file (content-refs.ts: the version rows are
 * the count, so the original's deletion leaves it), charged to the caller's quota like an
 * upload. It takes its original's capture time, place and camera at once, so it lands in the
 * caller's timeline at its day; its thumbnails are made from its own bytes as an upload's are.
 */
export class KeepCopyService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly files: FileService,
    private readonly nodes: NodeService,
    private readonly links: PublicShareService,
  ) {}

  keep(actor: Actor, nodeId: string, link: LinkCredentials | null): Node {
    // What the caller cannot see does not exist for it (404), by a link as without one.
    const original = link ? this.links.keepable(link, nodeId) : this.access.node(actor, nodeId, 'read');
    if (original.in_trash) throw new AppError('not_found');
    if (original.type !== 'file') throw new AppError('invalid_input', 'Only a file can be kept: open the folder and keep what is in it.');
    if (original.owner_id === actor.userId) throw new AppError('already_yours');
    const version = this.deps.store.versions.current(original.id);
    if (!version) throw new AppError('not_found');
    // The usual quota check; synchronous with what follows, so two keeps at once both count.
    const release = this.files.reserveQuota(actor.userId, version.size);
    try {
      const { store } = this.deps;
      const folderId = this.keptFolder(actor);
      const copy = store.transaction(() => {
        const dto = this.files.recordContent({
          uploaderId: actor.userId,
          ownerId: actor.userId,
          parentId: folderId,
          nodeId: null,
          filename: original.name,
          mimeType: version.mime_type ?? original.mime_type ?? 'application/octet-stream',
          size: version.size,
          libraryId: version.library_id,
          blob: version.blob,
          sha256: version.sha256,
        });
        store.media.copyFacts(original.id, dto.id);
        return dto;
      });
      const row = store.nodes.byId(copy.id, actor.userId);
      if (!row) throw new AppError('not_found');
      const kept = toNodeDto(row);
      this.files.announce(kept);
      return kept;
    } finally {
      release();
    }
  }

  /** The caller's "Kept copies" folder; its top level when a file holds that name. */
  private keptFolder(actor: Actor): string | null {
    const existing = this.deps.store.nodes.activeSiblingId(containerOf(actor.userId, null), nameKey(KEPT_FOLDER));
    if (existing) {
      const node = this.deps.store.nodes.byId(existing, actor.userId);
      return node?.type === 'folder' ? node.id : null;
    }
    return this.nodes.createFolder(actor, { name: KEPT_FOLDER }).id;
  }
}
