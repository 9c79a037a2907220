/**
 * A long name as a person can take it in at a glance: its start and its end (where `.jpg`
 * says what it is), with "…" for the middle. Counted in characters as seen, so an emoji is
 * never cut in two. The whole name belongs in a title or a details view beside it.
 */
export function middleOut(name: string, max = 60): string {
  const Segmenter = (Intl as { Segmenter?: typeof Intl.Segmenter }).Segmenter;
  const pieces = Segmenter ? [...new Segmenter(undefined, { granularity: 'grapheme' }).segment(name)].map((s) => s.segment) : [...name];
  if (pieces.length <= max) return name;
  const tail = Math.min(20, Math.floor(max / 3));
  return `${pieces
    .slice(0, max - tail - 1)
    .join('')
    .trimEnd()}…${pieces.slice(-tail).join('').trimStart()}`;
}
