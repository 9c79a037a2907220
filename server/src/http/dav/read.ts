import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Actor } from '../../services/common/context.ts';
import type { Services } from '../../services/index.ts';
import { sendFile } from '../send-file.ts';
import type { LockManager } from './lock-manager.ts';
import { lockDiscovery } from './lock-xml.ts';
import { davHref } from './paths.ts';
import { davEtag, propsOf, type DavQuota, type DavResource } from './props.ts';
import { entriesOf, type Resolved } from './resolve.ts';
import { NotXml, parsePropfind, type PropfindRequest } from './xml-in.ts';
import { davError, multistatus } from './xml-out.ts';

/** A PROPFIND body is a few property names: anything longer is not one. */
const MAX_XML_BODY = 1024 * 1024;

/**
 * PROPFIND, Depth 0 or 1 (RFC 4918 9.1). `infinity` (also the default when no Depth is sent) is
 * refused with the propfind-finite-depth precondition, as 9.1 allows: one request must not walk
 * a whole family's files.
 */
export async function propfind(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved, locks: LockManager): Promise<void> {
  const depth = ctx.get('Depth').trim().toLowerCase() || 'infinity';
  if (depth !== '0' && depth !== '1') {
    ctx.status = 403;
    ctx.type = 'application/xml; charset=utf-8';
    ctx.body = davError('propfind-finite-depth');
    return;
  }
  let request: PropfindRequest;
  try {
    request = parsePropfind(await readText(ctx));
  } catch (error) {
    if (error instanceof NotXml) throw new AppError('invalid_input', `The request body is not a PROPFIND: ${error.message}`);
    throw error;
  }
  if (!at.exists) throw new AppError('not_found');
  const quota = quotaOf(services, actor);
  const folder = at.node === null || at.node.type === 'folder';
  const resources: DavResource[] = [
    { href: davHref(at.names, folder), node: at.node, name: at.label, locks: lockDiscovery(locks, actor, at.names) },
  ];
  if (depth === '1' && folder) {
    for (const { name, node } of entriesOf(services, actor, at)) {
      const names = [...at.names, name];
      resources.push({ href: davHref(names, node === null || node.type === 'folder'), node, name, locks: lockDiscovery(locks, actor, names) });
    }
  }
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = multistatus(resources.map((resource) => propsOf(resource, request, quota)));
}

/** GET and HEAD of a file, with one Range and conditional requests, as the download route sends it. */
export function getFile(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): void {
  if (!at.exists) throw new AppError('not_found');
  if (at.node === null || at.node.type === 'folder') {
    throw new AppError('method_not_allowed', 'A folder is opened with PROPFIND.', {
      headers: { Allow: 'OPTIONS, PROPFIND, MKCOL, PUT, DELETE' },
    });
  }
  const node = at.node;
  sendFile(ctx, { ...services.files.download(actor, node.id), etag: davEtag(node) }, { inline: false });
}

function quotaOf(services: Services, actor: Actor): DavQuota {
  const { used, limit } = services.accounts.me(actor).quota;
  return { used, available: limit === null ? null : limit - used };
}

/** The request body as text, refused past MAX_XML_BODY. */
export async function readText(ctx: Koa.Context): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_XML_BODY) throw new AppError('payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
