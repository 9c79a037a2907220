import { searchKey } from '../files/node-names.ts';

/**
 * What a search in Photos asks for, as a family types it: dates ("2019", "July 2021",
 * "3 August 2024", "christmas 2018", "2024-08-03", a month or a holiday of every year) and
 * words (a town, a country, a camera, part of a file name). Dates are on the camera's clock
 * where the photo was taken, as the timeline counts them (taken_sort): "christmas 2018" is
 * 24 to 26 December as it was where the family was.
 */
export interface PhotoQuery {
  /** Taken within [from, before) (ms, the wall clock read as UTC). */
  range: { from: number; before: number } | null;
  /** Taken on these days of any year, as "MM-DD" from and to (inclusive): "christmas", "july". */
  everyYear: { from: string; to: string } | null;
  /** Folded words, each of which must be found in the file's name, place or camera (or a person, a thing). */
  words: string[];
  /** For each word, the things it names ("dogs": dog; thing-words.ts), added by photoSearch. */
  things?: readonly (readonly string[])[];
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "jan", "sept", "july": the month's index, or -1. */
function monthIndex(token: string): number {
  const word = token.replace(/\.$/, '');
  if (word.length < 3) return -1;
  if (word === 'sept') return 8;
  return MONTHS.findIndex((month) => month === word || (word.length === 3 && month.startsWith(word)));
}

/** Days the family names, each with its span: [first month, first day, last month, last day]. */
const HOLIDAYS: { words: string[]; span: [number, number, number, number] }[] = [
  { words: ['christmas', 'eve'], span: [12, 24, 12, 24] },
  { words: ['christmas', 'day'], span: [12, 25, 12, 25] },
  { words: ['christmas'], span: [12, 24, 12, 26] },
  { words: ['xmas'], span: [12, 24, 12, 26] },
  { words: ['new', "year's", 'eve'], span: [12, 31, 12, 31] },
  { words: ['new', 'years', 'eve'], span: [12, 31, 12, 31] },
  { words: ['new', "year's", 'day'], span: [1, 1, 1, 1] },
  { words: ['new', 'years', 'day'], span: [1, 1, 1, 1] },
  { words: ['halloween'], span: [10, 31, 10, 31] },
  { words: ["valentine's", 'day'], span: [2, 14, 2, 14] },
  { words: ['valentines', 'day'], span: [2, 14, 2, 14] },
];

/** Years a capture time can have (capture-time.ts keeps 1900 to next year). */
function year(token: string | undefined): number | null {
  if (token === undefined || !/^\d{4}$/.test(token)) return null;
  const value = Number(token);
  return value >= 1900 && value <= 2200 ? value : null;
}

function day(token: string | undefined): number | null {
  const m = token === undefined ? null : /^(\d{1,2})(st|nd|rd|th)?$/.exec(token);
  return m ? Number(m[1]) : null;
}

function utc(y: number, monthIndex0: number, d: number): number {
  const date = new Date(0);
  date.setUTCFullYear(y, monthIndex0, d);
  return date.getTime();
}

function validDay(y: number, m0: number, d: number): boolean {
  return d >= 1 && d <= 31 && new Date(utc(y, m0, d)).getUTCDate() === d;
}

const pad = (n: number) => String(n).padStart(2, '0');

interface Match {
  length: number;
  /** A date that is none ("31 February 2020"): its tokens are words, so it finds what is named so, or nothing. */
  impossible?: true;
  range?: { from: number; before: number };
  everyYear?: { from: string; to: string };
}

/** A date phrase starting at tokens[i], or null. */
function dateAt(tokens: string[], i: number): Match | null {
  const t = tokens[i]!;
  // 2024-08-03, 2024-08
  const iso = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(t);
  if (iso) {
    const y = year(iso[1]);
    const m0 = Number(iso[2]) - 1;
    const d = iso[3] === undefined ? null : Number(iso[3]);
    if (y === null || m0 < 0 || m0 > 11) return null;
    if (d === null) return { length: 1, range: { from: utc(y, m0, 1), before: utc(y, m0 + 1, 1) } };
    return validDay(y, m0, d) ? { length: 1, range: { from: utc(y, m0, d), before: utc(y, m0, d + 1) } } : null;
  }
  for (const holiday of HOLIDAYS) {
    if (!holiday.words.every((word, k) => tokens[i + k] === word)) continue;
    const [m1, d1, m2, d2] = holiday.span;
    const y = year(tokens[i + holiday.words.length]);
    if (y === null) return { length: holiday.words.length, everyYear: { from: `${pad(m1)}-${pad(d1)}`, to: `${pad(m2)}-${pad(d2)}` } };
    return { length: holiday.words.length + 1, range: { from: utc(y, m1 - 1, d1), before: utc(y, m2 - 1, d2 + 1) } };
  }
  // [day] month [day] [year]: "3 august 2024", "august 3 2024", "july 2021", "july"
  let at = i;
  let d = day(tokens[at]);
  if (d !== null) at++;
  const m0 = monthIndex(tokens[at] ?? '');
  if (m0 < 0) return null;
  at++;
  if (d === null) {
    d = day(tokens[at]);
    if (d !== null) at++;
  }
  const y = year(tokens[at]);
  if (y !== null) at++;
  const length = at - i;
  if (y === null) {
    // A day of a month of every year ("3 august") or a whole month ("july").
    if (d !== null)
      return validDay(2000, m0, d) ? { length, everyYear: { from: `${pad(m0 + 1)}-${pad(d)}`, to: `${pad(m0 + 1)}-${pad(d)}` } } : null;
    return { length, everyYear: { from: `${pad(m0 + 1)}-01`, to: `${pad(m0 + 1)}-31` } };
  }
  if (d !== null)
    return validDay(y, m0, d) ? { length, range: { from: utc(y, m0, d), before: utc(y, m0, d + 1) } } : { length, impossible: true };
  return { length, range: { from: utc(y, m0, 1), before: utc(y, m0 + 1, 1) } };
}

/** Reads what someone typed into the search box. Never throws: what is not a date is a word. */
export function parsePhotoQuery(text: string): PhotoQuery {
  const tokens = searchKey(text)
    .replace(/[’‘]/g, "'")
    .split(/[\s,]+/)
    .filter((token) => token.length > 0);
  const query: PhotoQuery = { range: null, everyYear: null, words: [] };
  for (let i = 0; i < tokens.length;) {
    const match = dateAt(tokens, i);
    if (match?.impossible) {
      for (const token of tokens.slice(i, i + match.length)) if (!query.words.includes(token)) query.words.push(token);
      i += match.length;
      continue;
    }
    if (match) {
      if (match.range) query.range = intersect(query.range, match.range);
      if (match.everyYear) query.everyYear = match.everyYear;
      i += match.length;
      continue;
    }
    const y = year(tokens[i]);
    if (y !== null) {
      query.range = intersect(query.range, { from: utc(y, 0, 1), before: utc(y + 1, 0, 1) });
    } else if (!query.words.includes(tokens[i]!)) {
      query.words.push(tokens[i]!);
    }
    i++;
  }
  return query;
}

/** Two dates asked at once ("2019 july 2019"): what lies in both (an empty range finds nothing). */
function intersect(a: { from: number; before: number } | null, b: { from: number; before: number }): { from: number; before: number } {
  if (!a) return b;
  const from = Math.max(a.from, b.from);
  return { from, before: Math.max(from, Math.min(a.before, b.before)) };
}

export function isEmptyQuery(query: PhotoQuery): boolean {
  return query.range === null && query.everyYear === null && query.words.length === 0;
}
