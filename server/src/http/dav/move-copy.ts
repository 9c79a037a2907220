import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Node } from '../../contract/files-responses.ts';
import type { Actor } from '../../services/common/context.ts';
import { nameKey } from '../../services/files/node-names.ts';
import type { Services } from '../../services/index.ts';
import { DavError } from './errors.ts';
import { davSegments } from './paths.ts';
import { childrenOf, resolvePath, type Resolved } from './resolve.ts';
import { refuseSharedDestination } from './shared.ts';

/** Where a COPY or MOVE goes, resolved, and whether it may replace what is there. */
interface Target {
  to: Resolved;
  overwrite: boolean;
}

/**
 * MOVE (RFC 4918 9.9): a rename and a move in one, through the node service, so the file keeps
 * its versions, shares and photos' facts. What the destination held goes to the trash first
 * (Overwrite: T, the default); 201 when the name was free, 204 when something was replaced.
 */
export function moveNode(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): void {
  const source = sourceOf(at);
  const { to } = targetOf(ctx, services, actor, at);
  // The node service keeps a node in its owner's tree; said here in words a person can act on.
  if (source.owner_id !== (to.parent?.owner_id ?? actor.userId)) throw new AppError('move_across_owners');
  const replaced = to.node !== null && to.node.id !== source.id ? to.node : null;
  if (replaced) services.nodes.trash(actor, replaced.id);
  services.nodes.update(actor, source.id, { name: to.names[to.names.length - 1]!, parent_id: to.parent?.id ?? null });
  ctx.status = replaced ? 204 : 201;
}

/**
 * COPY (RFC 4918 9.8): a file's bytes go through the upload service as a new file (quota,
 * checksums, thumbnails and events as any upload; identical contents are merged later by the
 * content index), a folder is made again with, at Depth infinity (the default), all it holds.
 */
export async function copyNode(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): Promise<void> {
  const source = sourceOf(at);
  const depth = ctx.get('Depth').trim().toLowerCase() || 'infinity';
  if (depth !== '0' && depth !== 'infinity') throw new AppError('invalid_input', 'COPY takes Depth 0 or infinity.');
  const { to } = targetOf(ctx, services, actor, at);
  if (to.node) services.nodes.trash(actor, to.node.id);
  await copyInto(services, actor, source, to.parent?.id ?? null, to.names[to.names.length - 1]!, depth === 'infinity');
  ctx.status = to.node ? 204 : 201;
}

async function copyInto(
  services: Services,
  actor: Actor,
  source: Node,
  parentId: string | null,
  name: string,
  deep: boolean,
): Promise<void> {
  if (source.type === 'folder') {
    const folder = services.nodes.createFolder(actor, { name, parent_id: parentId });
    services.davProperties.copy(actor, source.id, folder.id);
    if (!deep) return;
    for (const child of childrenOf(services, actor, source)) await copyInto(services, actor, child, folder.id, child.name, true);
    return;
  }
  const content = services.files.download(actor, source.id);
  const metadata: Record<string, string | null> = { filename: name, filetype: source.mime_type };
  if (parentId !== null) metadata.parent_id = parentId;
  const upload = await services.uploads.create(actor, content.version.size, metadata);
  try {
    const result = await services.uploads.append(actor, upload.id, { offset: 0, bodyLength: content.version.size }, content.open());
    if (!result.node) throw new AppError('internal');
    services.davProperties.copy(actor, source.id, result.node.id);
  } catch (error) {
    await services.uploads.terminate(actor, upload.id).catch(() => {});
    throw error;
  }
}

function sourceOf(at: Resolved): Node {
  if (!at.exists) throw new AppError('not_found');
  if (at.node === null) throw new AppError('forbidden', 'The top of your files cannot be moved or copied.');
  return at.node;
}

/**
 * The Destination header as a place in the account's tree, or a refusal:
 * 502 for another server, 403 onto itself or inside itself, 409 without the parent folder,
 * 412 when something is there and Overwrite is F.
 */
function targetOf(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): Target {
  const header = ctx.get('Destination');
  if (header === '') throw new AppError('missing_field', 'A Destination header is needed.', { field: 'Destination' });
  let url: URL;
  try {
    url = new URL(header, `${ctx.protocol}://${ctx.host}`);
  } catch {
    throw new AppError('invalid_input', 'The Destination is not an address.', { field: 'Destination' });
  }
  if (url.host !== ctx.host) throw new DavError(502, 'invalid_input', 'The Destination is on another server.');
  const names = davSegments(url.pathname);
  if (names === null) throw new AppError('invalid_input', 'The Destination is not inside your files.', { field: 'Destination' });
  if (names.length === 0) throw new DavError(403, 'forbidden', 'Nothing can replace the top of your files.');
  const sameKeys = (a: string[], b: string[]) => a.length <= b.length && a.every((name, i) => nameKey(name) === nameKey(b[i]!));
  const exact = names.length === at.names.length && names.every((name, i) => name === at.names[i]);
  if (exact) throw new DavError(403, 'forbidden', 'The Destination is the source itself.');
  if (at.node?.type === 'folder' && sameKeys(at.names, names) && names.length > at.names.length) {
    throw new DavError(403, 'invalid_move', 'A folder cannot go inside itself.');
  }
  const to = resolvePath(services, actor, names);
  refuseSharedDestination(to);
  if (!to.parentExists) throw new DavError(409, 'not_found', 'The folder of the Destination does not exist.');
  const overwrite = ctx.get('Overwrite').trim().toUpperCase() !== 'F';
  // A rename that changes only the case finds the source itself at the destination.
  if (to.node && to.node.id !== at.node?.id && !overwrite)
    throw new DavError(412, 'name_conflict', 'Something is already there, and Overwrite is F.');
  return { to: to.node?.id === at.node?.id ? { ...to, node: null, exists: false } : to, overwrite };
}
