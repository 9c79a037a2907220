import type { Node } from '../../contract/files-responses.ts';
import type { DavProperty } from '../../services/files/dav-properties.ts';
import { SUPPORTED_LOCK } from './lock-xml.ts';
import { DAV_NS, type PropName, type PropfindRequest } from './xml-in.ts';
import { escapeXml, type MultistatusEntry, type PropValue } from './xml-out.ts';

/** The account's storage as RFC 4331 reports it; `available` null when there is no limit. */
export interface DavQuota {
  used: number;
  available: number | null;
}

/** A resource under /dav/: a node, or the top of the account's tree (node null). */
export interface DavResource {
  href: string;
  node: Node | null;
  /** Its lockdiscovery value: the activelocks whose scope holds it ('' when none). */
  locks?: string;
  /** Its name in /dav/ when not its node's: "Shared with me", a shared item named apart. */
  name?: string | null;
}

const LIVE = [
  'displayname',
  'resourcetype',
  'getcontentlength',
  'getcontenttype',
  'getlastmodified',
  'getetag',
  'creationdate',
  'quota-available-bytes',
  'quota-used-bytes',
  'supportedlock',
  'lockdiscovery',
] as const;

/** Not sent with allprop (RFC 4331 3: quota properties are computed, asked for by name). */
const NOT_IN_ALLPROP = new Set(['quota-available-bytes', 'quota-used-bytes']);

/**
 * A strong ETag that changes with the content: a file's version number goes up with every new
 * content (an overwrite, a version restored) and never with a rename. GET sends the same one.
 */
export function davEtag(node: Node): string {
  return `"${node.id}-${node.version}"`;
}

/**
 * One resource's response in a PROPFIND's multistatus: live properties computed from the node,
 * dead ones (`dead`, PROPPATCH's) as they were kept. allprop and propname give both (RFC 4918
 * 9.1), but not the quota properties, which are asked for by name.
 */
export function propsOf(
  resource: DavResource,
  request: PropfindRequest,
  quota: DavQuota,
  dead: readonly DavProperty[] = [],
): MultistatusEntry {
  const names: PropName[] =
    request.kind === 'prop'
      ? request.names
      : [
          ...LIVE.filter((local) => !NOT_IN_ALLPROP.has(local)).map((local) => ({ ns: DAV_NS, local })),
          ...dead.map(({ ns, name }) => ({ ns, local: name })),
        ];
  const kept = new Map(dead.map((property) => [`${property.ns}\u0000${property.name}`, property.xml]));
  const found: PropValue[] = [];
  const missing: PropName[] = [];
  for (const name of names) {
    if (name.ns === DAV_NS) {
      const xml = liveValue(name.local, resource, quota);
      if (xml === undefined) missing.push(name);
      else found.push({ name, xml: request.kind === 'propname' ? '' : xml });
      continue;
    }
    const element = kept.get(`${name.ns}\u0000${name.local}`);
    if (element === undefined) missing.push(name);
    else found.push(request.kind === 'propname' ? { name, xml: '' } : { name, xml: '', element });
  }
  return { href: resource.href, found, missing };
}

function liveValue(local: string, { node, locks, name: label }: DavResource, quota: DavQuota): string | undefined {
  const file = node?.type === 'file' ? node : null;
  switch (local) {
    case 'displayname':
      return escapeXml(label ?? node?.name ?? 'Hearth');
    case 'resourcetype':
      return file ? '' : '<d:collection/>';
    case 'getcontentlength':
      return file ? String(file.size) : undefined;
    case 'getcontenttype':
      return file ? escapeXml(file.mime_type ?? 'application/octet-stream') : undefined;
    case 'getlastmodified':
      return node ? new Date(node.updated_at).toUTCString() : undefined;
    case 'getetag':
      return file ? escapeXml(davEtag(file)) : undefined;
    case 'creationdate':
      return node ? new Date(node.created_at).toISOString() : undefined;
    case 'quota-used-bytes':
      return String(quota.used);
    case 'quota-available-bytes':
      return quota.available === null ? undefined : String(Math.max(0, quota.available));
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery':
      return locks ?? '';
    default:
      return undefined;
  }
}
