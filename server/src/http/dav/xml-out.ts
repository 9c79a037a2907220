import { DAV_NS, type PropName } from './xml-in.ts';

/** A property's value as XML already escaped (escapeXml), or an element with no content (''). */
export interface PropValue {
  name: PropName;
  xml: string;
}

export interface MultistatusEntry {
  href: string;
  found: PropValue[];
  missing: PropName[];
  /** Properties that cannot be changed here (PROPPATCH): 403. */
  refused?: PropName[];
}

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** A 207 Multi-Status body: the found properties in one 200 propstat, unknown ones in a 404. */
export function multistatus(entries: MultistatusEntry[]): string {
  const parts = ['<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:">'];
  for (const entry of entries) {
    parts.push(`<d:response><d:href>${escapeXml(entry.href)}</d:href>`);
    if (entry.found.length > 0) parts.push(propstat(entry.found, '200 OK'));
    if (entry.missing.length > 0) parts.push(propstat(bare(entry.missing), '404 Not Found'));
    if (entry.refused?.length) parts.push(propstat(bare(entry.refused), '403 Forbidden'));
    parts.push('</d:response>');
  }
  parts.push('</d:multistatus>\n');
  return parts.join('');
}

/** An error body with one precondition (RFC 4918 16), as `DAV:propfind-finite-depth`. */
export function davError(condition: string): string {
  return `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:"><d:${condition}/></d:error>\n`;
}

function bare(names: PropName[]): PropValue[] {
  return names.map((name) => ({ name, xml: '' }));
}

function propstat(values: PropValue[], status: string): string {
  const props = values.map(({ name, xml }) => element(name, xml)).join('');
  return `<d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 ${status}</d:status></d:propstat>`;
}

function element(name: PropName, xml: string): string {
  if (name.ns === DAV_NS) return xml === '' ? `<d:${name.local}/>` : `<d:${name.local}>${xml}</d:${name.local}>`;
  // Another namespace is declared on the element itself: no prefix can clash.
  const ns = name.ns === '' ? ' xmlns=""' : ` xmlns="${escapeXml(name.ns)}"`;
  return xml === '' ? `<${name.local}${ns}/>` : `<${name.local}${ns}>${xml}</${name.local}>`;
}
