import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { DavPropertyChange } from '../../services/files/dav-properties.ts';
import { serializeElement, type XmlAttribute, type XmlElement } from './xml-tree.ts';

/** A property's name: its namespace URI and local name. */
export interface PropName {
  ns: string;
  local: string;
}

/** What a PROPFIND asks for. */
export type PropfindRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: PropName[] };

export const DAV_NS = 'DAV:';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
/** Deeper than any WebDAV body or property value needs; a deeper body is a bomb (400, before it costs anything). */
const MAX_DEPTH = 64;
/** More elements than any WebDAV body needs: a body of a million empty tags is refused before it is parsed. */
const MAX_ELEMENTS = 20_000;

/** The request body is not the XML it should be (400). */
export class NotXml extends Error {}

/** The body declares an external entity (RFC 4918 16: 403 with DAV:no-external-entities). */
export class ExternalEntity extends NotXml {}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Entities stay as written: a value is kept as the XML it was sent as, and nothing is expanded.
  processEntities: false,
  trimValues: false,
  parseTagValue: false,
  cdataPropName: '#cdata',
  maxNestedTags: MAX_DEPTH,
  onDangerousProperty: (name: string) => {
    throw new NotXml(`An element cannot be called ${name} here.`);
  },
});

/**
 * A PROPFIND body: none means allprop (RFC 4918 9.1). Anything else must be well-formed XML whose
 * root is DAV:propfind holding one of prop, allprop or propname.
 */
export function parsePropfind(body: string): PropfindRequest {
  if (body.trim() === '') return { kind: 'allprop' };
  const root = parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'propfind') throw new NotXml('The root is not DAV:propfind.');
  for (const child of root.children) {
    if (child.ns !== DAV_NS) continue;
    if (child.local === 'allprop') return { kind: 'allprop' };
    if (child.local === 'propname') return { kind: 'propname' };
    if (child.local === 'prop') return { kind: 'prop', names: child.children.map(({ ns, local }) => ({ ns, local })) };
  }
  throw new NotXml('A propfind holds prop, allprop or propname.');
}

/**
 * A PROPPATCH body's instructions in document order (RFC 4918 9.2): each property of each set
 * with its element as self-contained XML (its namespaces declared on it, and the xml:lang in
 * scope written on it, as 4.3 and 4.4 ask), each of each remove by name.
 */
export function parseProppatch(body: string): DavPropertyChange[] {
  const root = parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'propertyupdate') throw new NotXml('The root is not DAV:propertyupdate.');
  const changes: DavPropertyChange[] = [];
  for (const change of root.children) {
    if (change.ns !== DAV_NS || (change.local !== 'set' && change.local !== 'remove')) continue;
    for (const prop of change.children) {
      if (prop.ns !== DAV_NS || prop.local !== 'prop') continue;
      for (const property of prop.children) {
        const named = { ns: property.ns, name: property.local };
        changes.push(
          change.local === 'set' ? { op: 'set', ...named, xml: serializeElement(withLang(property)) } : { op: 'remove', ...named },
        );
      }
    }
  }
  if (changes.length === 0) throw new NotXml('A propertyupdate sets or removes at least one property.');
  return changes;
}

/**
 * The document element of a body, with namespaces resolved; NotXml when it is not well-formed,
 * declares a DTD (an entity bomb needs one), nests deeper than MAX_DEPTH or holds more than
 * MAX_ELEMENTS elements.
 */
export function parseXml(body: string): XmlElement {
  const doctype = /<!DOCTYPE[\s\S]*/.exec(body);
  if (doctype) {
    if (/<!ENTITY[^>]*\s(SYSTEM|PUBLIC)\s/.test(doctype[0]) || /^<!DOCTYPE[^[>]*\s(SYSTEM|PUBLIC)\s/.test(doctype[0])) {
      throw new ExternalEntity('The body names an external entity.');
    }
    throw new NotXml('A WebDAV body has no DTD (no <!DOCTYPE>).');
  }
  if ((body.match(/</g)?.length ?? 0) > MAX_ELEMENTS) throw new NotXml('The body holds too many elements.');
  let tree: OrderedNode[];
  try {
    // The parser first: it stops at MAX_DEPTH, where the validator would walk any depth.
    tree = parser.parse(body) as OrderedNode[];
  } catch (error) {
    if (error instanceof NotXml) throw error;
    throw new NotXml(
      error instanceof Error && /nested/i.test(error.message) ? 'The body nests too deep.' : 'The body is not well-formed XML.',
    );
  }
  if (XMLValidator.validate(body) !== true) throw new NotXml('The body is not well-formed XML.');
  const roots = elementsOf(tree, new Map([['xml', XML_NS]]), null);
  if (roots.length !== 1) throw new NotXml('An XML body has one root element.');
  return roots[0]!;
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function elementsOf(nodes: OrderedNode[], scope: Map<string, string>, lang: string | null): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of nodes) {
    const tag = Object.keys(node).find((key) => key !== ':@' && !key.startsWith('#') && !key.startsWith('?'));
    if (tag === undefined) continue;
    out.push(elementOf(node, tag, scope, lang));
  }
  return out;
}

function elementOf(node: OrderedNode, tag: string, scope: Map<string, string>, inheritedLang: string | null): XmlElement {
  const inner = new Map(scope);
  const raw = Object.entries(node[':@'] ?? {});
  for (const [name, value] of raw) {
    if (name === 'xmlns') inner.set('', decodeEntities(value));
    else if (name.startsWith('xmlns:')) {
      // Namespaces in XML 1.0 (section 3): a prefix cannot be bound to nothing.
      if (value === '') throw new NotXml(`The prefix ${name.slice(6)} is bound to an empty namespace.`);
      inner.set(name.slice(6), decodeEntities(value));
    }
  }
  const attributes: XmlAttribute[] = [];
  let lang = inheritedLang;
  for (const [name, value] of raw) {
    if (name === 'xmlns' || name.startsWith('xmlns:')) continue;
    checkReferences(value);
    const [prefix, local] = split(name);
    const ns = prefix === '' ? '' : inner.get(prefix);
    if (ns === undefined) throw new NotXml(`The prefix ${prefix} is not declared.`);
    if (ns === XML_NS && local === 'lang') lang = value;
    attributes.push({ prefix, local, ns, value });
  }
  const [prefix, local] = split(tag);
  const ns = inner.get(prefix);
  if (ns === undefined && prefix !== '') throw new NotXml(`The prefix ${prefix} is not declared.`);
  const element: XmlElement = { ns: ns ?? '', prefix, local, attributes, lang, children: [], content: [] };
  for (const child of (node[tag] as OrderedNode[]) ?? []) {
    if (typeof child['#text'] === 'string') {
      checkReferences(child['#text']);
      element.content.push({ text: child['#text'] });
    } else if (Array.isArray(child['#cdata'])) {
      const text = (child['#cdata'] as { '#text'?: string }[]).map((part) => part['#text'] ?? '').join('');
      element.content.push({ cdata: text });
    } else {
      const [sub] = elementsOf([child], inner, lang);
      if (sub) {
        element.children.push(sub);
        element.content.push(sub);
      }
    }
  }
  return element;
}

/** The property element with the xml:lang in scope written on it (RFC 4918 4.3), unless it has its own. */
function withLang(element: XmlElement): XmlElement {
  if (element.lang === null || element.attributes.some((a) => a.ns === XML_NS && a.local === 'lang')) return element;
  return { ...element, attributes: [...element.attributes, { prefix: 'xml', local: 'lang', ns: XML_NS, value: element.lang }] };
}

function split(name: string): [string, string] {
  const colon = name.indexOf(':');
  return colon === -1 ? ['', name] : [name.slice(0, colon), name.slice(colon + 1)];
}

/**
 * Text kept as written may hold only the predefined entities and character references to
 * characters XML allows: any other `&name;` needs a DTD, which is refused.
 */
function checkReferences(raw: string): void {
  for (const match of raw.matchAll(/&([^;]*);?/g)) {
    const ref = match[1]!;
    if (!match[0].endsWith(';')) throw new NotXml('An & in the body starts no reference.');
    if (['amp', 'lt', 'gt', 'quot', 'apos'].includes(ref)) continue;
    const code = /^#x([0-9a-fA-F]{1,6})$/.test(ref) ? parseInt(ref.slice(2), 16) : /^#([0-9]{1,7})$/.test(ref) ? Number(ref.slice(1)) : -1;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      (code >= 0x10000 && code <= 0x10ffff);
    if (!allowed) throw new NotXml(`The reference &${ref}; names no character XML allows.`);
  }
}

function decodeEntities(raw: string): string {
  return raw.replace(/&(amp|lt|gt|quot|apos|#x[0-9a-fA-F]+|#[0-9]+);/g, (_all, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(Number(ref.slice(1)));
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[ref]!;
  });
}
