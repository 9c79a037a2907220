/** An attribute as the body wrote it: its value still escaped as sent. */
export interface XmlAttribute {
  prefix: string;
  local: string;
  ns: string;
  value: string;
}

/** Text as sent (its references kept), a CDATA section's text, or an element. */
export type XmlContent = { text: string } | { cdata: string } | XmlElement;

/** An element with its namespace resolved, as the body named it. */
export interface XmlElement {
  ns: string;
  prefix: string;
  local: string;
  attributes: XmlAttribute[];
  /** The xml:lang in scope (its own or an ancestor's), or null. */
  lang: string | null;
  /** Its child elements alone, for reading a request's structure. */
  children: XmlElement[];
  /** Everything inside it in order, for keeping a property's value. */
  content: XmlContent[];
}

/**
 * An element as XML that stands alone: every prefix it and its descendants use (and the
 * default namespace, even when empty) is declared where it is first needed, so the text means
 * the same wherever it is put in a response. The xml prefix is XML's own and never declared.
 */
export function serializeElement(element: XmlElement, scope: ReadonlyMap<string, string> = new Map()): string {
  const inner = new Map(scope);
  const declarations: string[] = [];
  const declare = (prefix: string, ns: string) => {
    if (prefix === 'xml' || inner.get(prefix) === ns) return;
    inner.set(prefix, ns);
    declarations.push(prefix === '' ? ` xmlns="${escapeAttribute(ns)}"` : ` xmlns:${prefix}="${escapeAttribute(ns)}"`);
  };
  declare(element.prefix, element.ns);
  for (const attribute of element.attributes) if (attribute.prefix !== '') declare(attribute.prefix, attribute.ns);
  const tag = element.prefix === '' ? element.local : `${element.prefix}:${element.local}`;
  const attributes = element.attributes.map(({ prefix, local, value }) => {
    const name = prefix === '' ? local : `${prefix}:${local}`;
    // The value is as sent, references and all; only a quote of the other kind needs escaping.
    return ` ${name}="${value.replace(/"/g, '&quot;')}"`;
  });
  const open = `<${tag}${declarations.join('')}${attributes.join('')}`;
  if (element.content.length === 0) return `${open}/>`;
  const inside = element.content.map((part) => {
    if ('text' in part) return part.text;
    if ('cdata' in part) return part.cdata.replace(/[&<>]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '>': 'gt' }[c]};`);
    return serializeElement(part, inner);
  });
  return `${open}>${inside.join('')}</${tag}>`;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<"]/g, (c) => `&${{ '&': 'amp', '<': 'lt', '"': 'quot' }[c]};`);
}
