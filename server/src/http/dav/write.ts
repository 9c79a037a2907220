import { Readable } from 'node:stream';
import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Actor } from '../../services/common/context.ts';
import type { Services } from '../../services/index.ts';
import { DavError } from './errors.ts';
import { davEtag } from './props.ts';
import type { Resolved } from './resolve.ts';

/**
 * PUT: the body streamed into an upload (services/files/uploads.ts), so a file made over
 * WebDAV is checked against the quota (507), hashed, versioned on overwrite and announced
 * like any upload. Without Content-Length (Finder's chunked PUT) the length is set from
 * what arrived once the body ends. 201 for a new file, 204 for a new version.
 */
export async function putFile(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): Promise<void> {
  if (at.exists && (at.node === null || at.node.type === 'folder')) {
    throw new AppError('method_not_allowed', 'A folder cannot be written as a file.', {
      headers: { Allow: 'OPTIONS, PROPFIND, MKCOL, DELETE' },
    });
  }
  if (!at.parentExists) throw new DavError(409, 'not_found', 'The folder this file would go in does not exist.');
  const name = at.names[at.names.length - 1]!;
  const lengthHeader = ctx.get('Content-Length');
  const length = lengthHeader === '' || ctx.get('Transfer-Encoding') !== '' ? null : Number(lengthHeader);
  if (length !== null && (!Number.isSafeInteger(length) || length < 0))
    throw new AppError('invalid_input', 'Content-Length is not a length.');
  const metadata: Record<string, string | null> = { filename: name, filetype: ctx.get('Content-Type') || null };
  if (at.node) metadata.node_id = at.node.id;
  else if (at.parent) metadata.parent_id = at.parent.id;

  const upload = await services.uploads.create(actor, length, metadata);
  let nodeId: string;
  try {
    let result = await services.uploads.append(actor, upload.id, { offset: 0, bodyLength: length ?? undefined }, ctx.req);
    if (!result.node && length === null) {
      result = await services.uploads.append(actor, upload.id, { offset: result.offset, length: result.offset }, Readable.from([]));
    }
    if (!result.node) throw new AppError('invalid_input', 'The body ended before Content-Length bytes arrived.');
    nodeId = result.node.id;
  } catch (error) {
    // A PUT is whole or nothing: what arrived of a broken one is not kept for a resume.
    await services.uploads.terminate(actor, upload.id).catch(() => {});
    throw error;
  }
  ctx.set('ETag', davEtag(services.nodes.get(actor, nodeId)));
  ctx.status = at.node ? 204 : 201;
}

/** MKCOL (RFC 4918 9.3): 201; 405 when something is there; 409 without the parent; 415 with a body. */
export function makeFolder(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): void {
  if ((Number(ctx.get('Content-Length')) || 0) > 0 || ctx.get('Transfer-Encoding') !== '') {
    throw new DavError(415, 'unsupported_media_type', 'MKCOL takes no body.');
  }
  if (at.exists) {
    throw new AppError('method_not_allowed', 'Something with that name is already there.', {
      headers: { Allow: 'OPTIONS, PROPFIND, PUT, DELETE' },
    });
  }
  if (!at.parentExists) throw new DavError(409, 'not_found', 'The folder this folder would go in does not exist.');
  services.nodes.createFolder(actor, { name: at.names[at.names.length - 1]!, parent_id: at.parent?.id ?? null });
  ctx.status = 201;
}

/** DELETE: to the trash, as in the app (restorable there until the trash is emptied). */
export function deleteNode(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): void {
  if (!at.exists) throw new AppError('not_found');
  if (at.node === null) throw new AppError('forbidden', 'The top of your files cannot be deleted.');
  services.nodes.trash(actor, at.node.id);
  ctx.status = 204;
}
