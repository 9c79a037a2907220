/** One condition of an If header list: a state token `<…>` or an entity tag `[…]`, maybe negated. */
export type IfCondition = { not: boolean; token: string } | { not: boolean; etag: string };

/** One list `( … )`, and the resource it is tagged with (null: the request's own). */
export interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

/** The If header is not the grammar of RFC 4918 10.4 (400). */
export class BadIfHeader extends Error {}

/**
 * The If header (RFC 4918 10.4), as its lists: untagged `(<token> [etag])` lists, or lists
 * tagged `<url> (…)` with the resource they apply to. Null when there is no header.
 */
export function parseIf(header: string): IfList[] | null {
  if (header.trim() === '') return null;
  const lists: IfList[] = [];
  let at = 0;
  let resource: string | null = null;
  let tagged: boolean | null = null;
  const skip = () => {
    while (at < header.length && /\s/.test(header[at]!)) at += 1;
  };
  for (skip(); at < header.length; skip()) {
    if (header[at] === '<') {
      // A resource tag: only in a header made of tagged lists, and followed by a list.
      if (tagged === false) throw new BadIfHeader('A header cannot mix tagged and untagged lists.');
      tagged = true;
      const end = header.indexOf('>', at);
      if (end === -1) throw new BadIfHeader('A resource tag is not closed.');
      resource = header.slice(at + 1, end);
      at = end + 1;
      skip();
      if (header[at] !== '(') throw new BadIfHeader('A resource tag is followed by a list.');
      continue;
    }
    if (header[at] !== '(') throw new BadIfHeader('Expected a list in parentheses.');
    if (tagged === null) tagged = false;
    const end = header.indexOf(')', at);
    if (end === -1) throw new BadIfHeader('A list is not closed.');
    lists.push({ resource: tagged ? resource : null, conditions: parseConditions(header.slice(at + 1, end)) });
    at = end + 1;
  }
  if (lists.length === 0) throw new BadIfHeader('The If header holds no list.');
  return lists;
}

function parseConditions(text: string): IfCondition[] {
  const conditions: IfCondition[] = [];
  const pattern = /\s*(Not\s*)?(?:<([^>]*)>|\[([^\]]*)\])\s*/giy;
  let match: RegExpExecArray | null;
  let at = 0;
  while (at < text.length && (match = pattern.exec(text)) !== null) {
    const not = match[1] !== undefined;
    if (match[2] !== undefined) conditions.push({ not, token: match[2].trim() });
    else conditions.push({ not, etag: match[3]!.trim() });
    at = pattern.lastIndex;
  }
  if (text.slice(at).trim() !== '' || conditions.length === 0) throw new BadIfHeader('A list holds state tokens and entity tags.');
  return conditions;
}

/** What a condition is checked against: the resource's locks and entity tag. */
export interface IfState {
  /** Whether the resource is in the scope of the account's live lock with this token. */
  lockedWith(token: string): boolean;
  /** The resource's current entity tag, or null (a folder, nothing there). */
  etag: string | null;
}

/**
 * Whether the header holds: at least one list whose conditions all hold for its resource
 * (RFC 4918 10.4.1). `stateOf` gives the state of the resource a list names (null: the request's).
 */
export function ifHolds(lists: IfList[], stateOf: (resource: string | null) => IfState | null): boolean {
  return lists.some((list) => {
    const state = stateOf(list.resource);
    if (!state) return false;
    return list.conditions.every((condition) => {
      const holds = 'token' in condition ? state.lockedWith(condition.token) : sameEtag(condition.etag, state.etag);
      return holds !== condition.not;
    });
  });
}

/** The lock tokens the request submits: every state token its If header names, not negated. */
export function submittedTokens(lists: IfList[] | null): Set<string> {
  const tokens = new Set<string>();
  for (const list of lists ?? []) {
    for (const condition of list.conditions) if ('token' in condition && !condition.not) tokens.add(condition.token);
  }
  return tokens;
}

/** Strong comparison; a weak tag `W/"…"` never matches a strong one. */
function sameEtag(wanted: string, current: string | null): boolean {
  return current !== null && wanted === current;
}
