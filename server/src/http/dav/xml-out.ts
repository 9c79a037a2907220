import { DAV_NS, type PropName } from './xml-in.ts';

/** Hearth's own namespace in WebDAV bodies: the codes and messages of its refusals. */
export const HEARTH_NS = 'urn:x-hearth:dav';

/** A property's value as XML already escaped (escapeXml), or an element with no content (''). */
export interface PropValue {
  name: PropName;
  xml: string;
  /** A dead property's whole element as it was kept (namespaces declared on it), sent as is. */
  element?: string;
}

/** Properties that share one status in a response, with why (RFC 4918 14.5: error, responsedescription). */
export interface Propstat {
  status: 200 | 403 | 404 | 424 | 507;
  names: PropName[];
  /** An element of the error: a DAV: precondition, or one of Hearth's codes. */
  error?: { ns: string; local: string };
  description?: string;
}

export interface MultistatusEntry {
  href: string;
  found: PropValue[];
  missing: PropName[];
  /** Other outcomes (PROPPATCH's). */
  others?: Propstat[];
}

const REASONS: Record<Propstat['status'], string> = {
  200: 'OK',
  403: 'Forbidden',
  404: 'Not Found',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' }[c]};`);
}

/** A 207 Multi-Status body: the found properties in one 200 propstat, unknown ones in a 404. */
export function multistatus(entries: MultistatusEntry[]): string {
  const parts = [`<?xml version="1.0" encoding="utf-8"?>\n<d:multistatus xmlns:d="DAV:" xmlns:h="${HEARTH_NS}">`];
  for (const entry of entries) {
    parts.push(`<d:response><d:href>${escapeXml(entry.href)}</d:href>`);
    if (entry.found.length > 0) parts.push(propstat(entry.found, '200 OK'));
    if (entry.missing.length > 0) parts.push(propstat(bare(entry.missing), '404 Not Found'));
    for (const other of entry.others ?? []) parts.push(outcome(other));
    parts.push('</d:response>');
  }
  parts.push('</d:multistatus>\n');
  return parts.join('');
}

/**
 * A refusal's body (RFC 4918 8.7 and 16): the DAV: precondition it names, if any, then Hearth's
 * code and message, as sabre/Nextcloud put theirs (s:exception, s:message) beside DAV:'s.
 */
export function davErrorBody(refusal: { code: string; message: string; condition?: string }): string {
  const condition = refusal.condition ? `<d:${refusal.condition}/>` : '';
  return (
    `<?xml version="1.0" encoding="utf-8"?>\n<d:error xmlns:d="DAV:" xmlns:h="${HEARTH_NS}">${condition}` +
    `<h:code>${escapeXml(refusal.code)}</h:code><h:message>${escapeXml(refusal.message)}</h:message></d:error>\n`
  );
}

function bare(names: PropName[]): PropValue[] {
  return names.map((name) => ({ name, xml: '' }));
}

function propstat(values: PropValue[], status: string, extra = ''): string {
  const props = values.map((value) => value.element ?? element(value.name, value.xml)).join('');
  return `<d:propstat><d:prop>${props}</d:prop><d:status>HTTP/1.1 ${status}</d:status>${extra}</d:propstat>`;
}

function outcome({ status, names, error, description }: Propstat): string {
  let extra = '';
  if (error) extra += `<d:error>${error.ns === DAV_NS ? `<d:${error.local}/>` : `<h:${error.local}/>`}</d:error>`;
  if (description) extra += `<d:responsedescription>${escapeXml(description)}</d:responsedescription>`;
  return propstat(bare(names), `${status} ${REASONS[status]}`, extra);
}

function element(name: PropName, xml: string): string {
  if (name.ns === DAV_NS) return xml === '' ? `<d:${name.local}/>` : `<d:${name.local}>${xml}</d:${name.local}>`;
  // Another namespace is declared on the element itself: no prefix can clash.
  const ns = name.ns === '' ? ' xmlns=""' : ` xmlns="${escapeXml(name.ns)}"`;
  return xml === '' ? `<${name.local}${ns}/>` : `<${name.local}${ns}>${xml}</${name.local}>`;
}
