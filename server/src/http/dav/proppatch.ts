import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Actor } from '../../services/common/context.ts';
import type { DavPropertyOutcome } from '../../services/files/dav-properties.ts';
import type { Services } from '../../services/index.ts';
import { DavError } from './errors.ts';
import { davHref } from './paths.ts';
import type { Resolved } from './resolve.ts';
import { readXml } from './xml-body.ts';
import { DAV_NS, parseProppatch } from './xml-in.ts';
import { HEARTH_NS, multistatus, type Propstat } from './xml-out.ts';

/** Why an instruction failed, as the propstat's error element and in words. */
const WHY: Record<NonNullable<DavPropertyOutcome['reason']>, { error: { ns: string; local: string }; description: string }> = {
  protected: {
    error: { ns: DAV_NS, local: 'cannot-modify-protected-property' },
    description: 'Properties in the DAV: namespace are the server’s to set.',
  },
  name_too_long: { error: { ns: HEARTH_NS, local: 'property-name-too-long' }, description: 'That property’s name is too long.' },
  too_large: { error: { ns: HEARTH_NS, local: 'property-too-large' }, description: 'A property holds at most 64 KiB.' },
  too_many: { error: { ns: HEARTH_NS, local: 'too-many-properties' }, description: 'A file or folder holds at most 100 properties.' },
};

/**
 * PROPPATCH (RFC 4918 9.2): the properties set and removed in document order, all or none
 * (services/files/dav-properties.ts); a 207 says what became of each, 424 for those left undone
 * because another failed. The top of the tree is no file or folder and keeps none (403).
 * Explorer and Finder set times and attributes after a copy: a clear answer lets them go on.
 */
export async function proppatch(ctx: Koa.Context, services: Services, actor: Actor, at: Resolved): Promise<void> {
  const changes = await readXml(ctx, 'PROPPATCH', parseProppatch);
  if (!at.exists) throw new AppError('not_found');
  if (at.node === null)
    throw new DavError(403, 'forbidden', 'The top of your files keeps no properties.', 'cannot-modify-protected-property');
  const outcomes = services.davProperties.patch(actor, at.node.id, changes);
  const folder = at.node.type === 'folder';
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = multistatus([{ href: davHref(at.names, folder), found: [], missing: [], others: grouped(outcomes) }]);
}

/** One propstat per status and reason, in the order they first came, each property named once. */
function grouped(outcomes: DavPropertyOutcome[]): Propstat[] {
  const groups = new Map<string, Propstat & { seen: Set<string> }>();
  for (const { ns, name, status, reason } of outcomes) {
    const key = `${status} ${reason ?? ''}`;
    let group = groups.get(key);
    if (!group) {
      group = { status, names: [], seen: new Set(), ...(reason ? WHY[reason] : {}) };
      if (status === 424) group.description = 'Not done: another property in this request could not be.';
      groups.set(key, group);
    }
    if (group.seen.has(`${ns}\u0000${name}`)) continue;
    group.seen.add(`${ns}\u0000${name}`);
    group.names.push({ ns, local: name });
  }
  return [...groups.values()].map(({ seen: _seen, ...propstat }) => propstat);
}
