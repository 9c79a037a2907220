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
import type { DavProperty } from '../../services/files/dav-properties.ts';
import { DavError } from './errors.ts';
import { readXml } from './xml-body.ts';
import { DAV_NS, parsePropfind, type PropfindRequest } from './xml-in.ts';
import { multistatus } from './xml-out.ts';

/**
 * PROPFIND, Depth 0 or 1 (RFC 4918 9.1). `infinity` (also the default when no Depth is sent) is
 * refused with the propfind-finite-depth precondition, as 9.1 allows: one request must not walk
 * a whole family's files. Any other Depth is not one (400).
 */
export async function propfind(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved, locks: LockManager): Promise<void> {
  const depth = ctx.get('Depth').trim().toLowerCase() || 'infinity';
  if (depth === 'infinity') {
    throw new DavError(403, 'forbidden', 'PROPFIND goes one folder at a time: send Depth 0 or 1.', 'propfind-finite-depth');
  }
  if (depth !== '0' && depth !== '1') throw new AppError('invalid_input', 'Depth is 0, 1 or infinity.', { field: 'Depth' });
  const request = await readXml(ctx, 'PROPFIND', parsePropfind);
  if (!at.exists) throw new AppError('not_found');
  const quota = quotaOf(services, actor);
  const folder = at.node === null || at.node.type === 'folder';
  const resources: DavResource[] = [
    { href: davHref(at.names, folder), node: at.node, name: at.label, locks: lockDiscovery(locks, actor, at.names) },
  ];
  if (depth === '1' && folder) {
    for (const { name, node } of entriesOf(services, actor, at)) {
      const names = [...at.names, name];
      resources.push({
        href: davHref(names, node === null || node.type === 'folder'),
        node,
        name,
        locks: lockDiscovery(locks, actor, names),
      });
    }
  }
  // Finder and Explorer ask for DAV: properties by name most of the time: no dead ones are read then.
  const dead = wantsDead(request)
    ? services.davProperties.of(
        actor,
        resources.flatMap(({ node }) => (node ? [node.id] : [])),
      )
    : new Map<string, DavProperty[]>();
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = multistatus(
    resources.map((resource) => propsOf(resource, request, quota, resource.node ? (dead.get(resource.node.id) ?? []) : [])),
  );
}

function wantsDead(request: PropfindRequest): boolean {
  return request.kind !== 'prop' || request.names.some((name) => name.ns !== DAV_NS);
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
