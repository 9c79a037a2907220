import { XMLParser, XMLValidator } from 'fast-xml-parser';

/** A property's name: its namespace URI and local name. */
export interface PropName {
  ns: string;
  local: string;
}

/** What a PROPFIND asks for. */
export type PropfindRequest = { kind: 'allprop' } | { kind: 'propname' } | { kind: 'prop'; names: PropName[] };

/** An element with its namespace resolved, as the body named it. */
interface XmlElement {
  ns: string;
  local: string;
  children: XmlElement[];
}

export const DAV_NS = 'DAV:';

/** The request body is not the XML it should be (400). */
export class NotXml extends Error {}

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', processEntities: false });

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

/** The names of the properties a PROPPATCH sets or removes, in order; NotXml for any other body. */
export function parseProppatch(body: string): PropName[] {
  const root = parseXml(body);
  if (root.ns !== DAV_NS || root.local !== 'propertyupdate') throw new NotXml('The root is not DAV:propertyupdate.');
  const names: PropName[] = [];
  for (const change of root.children) {
    if (change.ns !== DAV_NS || (change.local !== 'set' && change.local !== 'remove')) continue;
    for (const prop of change.children) {
      if (prop.ns === DAV_NS && prop.local === 'prop') names.push(...prop.children.map(({ ns, local }) => ({ ns, local })));
    }
  }
  return names;
}

/** The document element of a body, with namespaces resolved; NotXml when it is not well-formed. */
export function parseXml(body: string): XmlElement {
  if (XMLValidator.validate(body) !== true) throw new NotXml('The body is not well-formed XML.');
  const tree = parser.parse(body) as OrderedNode[];
  const roots = elementsOf(tree, new Map());
  if (roots.length !== 1) throw new NotXml('An XML body has one root element.');
  return roots[0]!;
}

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function elementsOf(nodes: OrderedNode[], scope: Map<string, string>): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of nodes) {
    const tag = Object.keys(node).find((key) => key !== ':@' && !key.startsWith('#') && !key.startsWith('?'));
    if (tag === undefined) continue;
    const inner = new Map(scope);
    for (const [name, value] of Object.entries(node[':@'] ?? {})) {
      if (name === 'xmlns') inner.set('', value);
      else if (name.startsWith('xmlns:')) {
        // Namespaces in XML 1.0 (section 3): a prefix cannot be bound to nothing.
        if (value === '') throw new NotXml(`The prefix ${name.slice(6)} is bound to an empty namespace.`);
        inner.set(name.slice(6), value);
      }
    }
    const colon = tag.indexOf(':');
    const prefix = colon === -1 ? '' : tag.slice(0, colon);
    const local = colon === -1 ? tag : tag.slice(colon + 1);
    const ns = inner.get(prefix);
    if (ns === undefined && prefix !== '') throw new NotXml(`The prefix ${prefix} is not declared.`);
    out.push({ ns: ns ?? '', local, children: elementsOf((node[tag] as OrderedNode[]) ?? [], inner) });
  }
  return out;
}
