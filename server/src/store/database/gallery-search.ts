/**
 * A search in the gallery as SQL: dates on taken_sort (the camera's clock where it was
 * taken), each word found at the start of a word of the place and camera (media_search,
 * " lisbon portugal google pixel 8 "), anywhere in the file's name, or at the start of a word of
 * the name of someone in the photo, or (a word the search knows as a kind of thing: "dogs") a
 * thing seen in the photo.
 */
export interface GalleryFilter {
  range: { from: number; before: number } | null;
  everyYear: { from: string; to: string } | null;
  /** Folded (node-names searchKey). */
  words: string[];
  /** For each word, the things (COCO labels, media/things.ts) it stands for; none for most words. */
  things?: readonly (readonly string[])[];
}

/** The condition on `n` (a nodes row), its parameters added to `params`. */
export function galleryFilterWhere(filter: GalleryFilter, params: Record<string, unknown>): string {
  const where: string[] = [];
  if (filter.range) {
    params.search_from = filter.range.from;
    params.search_before = filter.range.before;
    where.push('n.taken_sort >= @search_from AND n.taken_sort < @search_before');
  }
  if (filter.everyYear) {
    params.day_from = filter.everyYear.from;
    params.day_to = filter.everyYear.to;
    where.push("strftime('%m-%d', n.taken_sort / 1000, 'unixepoch') BETWEEN @day_from AND @day_to");
  }
  filter.words.forEach((word, i) => {
    const escaped = word.replace(/[\\%_]/g, (c) => `\\${c}`);
    params[`word_${i}`] = `%${escaped}%`;
    params[`word_start_${i}`] = `% ${escaped}%`;
    // A thing the word names finds the photos it was seen in, among those searched (never more).
    const labels = filter.things?.[i] ?? [];
    labels.forEach((label, j) => (params[`thing_${i}_${j}`] = label));
    const thing =
      labels.length > 0
        ? ` OR EXISTS (SELECT 1 FROM things t WHERE t.node_id = n.id AND t.label IN (${labels.map((_, j) => `@thing_${i}_${j}`).join(', ')}))`
        : '';
    // A person's name finds the photos they are in, by the name the photo's OWNER gave (never a
    // hidden person): whoever's timeline shows the photo (theirs, a partner's, an album's, a shared
    // folder's: the arms decide) finds it so, and nobody finds a photo the arms do not show them.
    where.push(
      `(n.search_name LIKE @word_${i} ESCAPE '\\' OR n.media_search LIKE @word_start_${i} ESCAPE '\\' OR EXISTS (SELECT 1 FROM faces f JOIN people p ON p.id = f.person_id WHERE f.node_id = n.id AND p.owner_id = n.owner_id AND p.hidden = 0 AND p.search_name LIKE @word_start_${i} ESCAPE '\\')${thing})`,
    );
  });
  return where.length > 0 ? where.join(' AND ') : '1';
}

/** media_search as stored: folded words with a space on each side, so a word's start is " word". */
export function mediaSearchText(folded: string): string | null {
  const words = folded.split(/\s+/).filter(Boolean);
  return words.length > 0 ? ` ${words.join(' ')} ` : null;
}
