/**
 * The length rule of file and folder names, shared with the web app so that it can offer a
 * name that fits before an upload is refused. No server imports: this runs in browsers too.
 */

/** The most a name holds: 255 bytes of UTF-8, what ext4, exFAT, NTFS and APFS all take. */
export const MAX_NAME_BYTES = 255;

const encoder = new TextEncoder();

export function nameBytes(name: string): number {
  return encoder.encode(name).length;
}

/** How far back a cut looks for the end of a word rather than end inside one. */
const WORD_CUT_REACH = 24;

/** An extension longer than this is not one worth keeping whole ("notes.from the meeting"). */
const MAX_EXTENSION_BYTES = 16;

/**
 * `name` cut to at most `maxBytes` bytes of UTF-8, keeping its extension (`.jpg`) and cutting
 * between characters as a person sees them (an emoji, a letter with its accent), never inside
 * one. A name that fits is returned unchanged.
 */
export function shortenName(name: string, maxBytes = MAX_NAME_BYTES): string {
  if (nameBytes(name) <= maxBytes) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && nameBytes(name.slice(dot)) <= MAX_EXTENSION_BYTES && !/\s/u.test(name.slice(dot)) ? name.slice(dot) : '';
  const base = extension === '' ? name : name.slice(0, dot);
  const room = maxBytes - nameBytes(extension);
  let kept = '';
  let used = 0;
  for (const piece of characters(base)) {
    const size = nameBytes(piece);
    if (used + size > room) break;
    kept += piece;
    used += size;
  }
  // A cut inside a word ("at the l.jpg") ends at the word before it, when one ends nearby.
  const next = base.slice(kept.length, kept.length + 1);
  const space = kept.search(/\s\S*$/u);
  if (next !== '' && !/\s/u.test(next) && space > 0 && kept.length - space <= WORD_CUT_REACH) kept = kept.slice(0, space);
  // "Holiday photos .jpg" reads like a mistake: the cut does not end on a space or a dot.
  kept = kept.replace(/[\s.]+$/u, '');
  return kept === '' ? cutAt(name, maxBytes) : kept + extension;
}

/** The characters a person sees (grapheme clusters), where the runtime can tell them. */
function characters(text: string): string[] {
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  if (Segmenter === undefined) return [...text];
  return [...new Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);
}

function cutAt(text: string, maxBytes: number): string {
  let kept = '';
  for (const piece of characters(text)) {
    if (nameBytes(kept + piece) > maxBytes) break;
    kept += piece;
  }
  return kept;
}
