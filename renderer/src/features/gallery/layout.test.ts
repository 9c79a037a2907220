import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildTimeline, monthIndexOfRow, monthLabel, type Timeline } from './layout.ts';
import type { GalleryMonth } from './queries.ts';

const month = (name: string, photos: number, videos = 0): GalleryMonth => ({ month: name, photos, videos });

/** Months newest first, as the server lists them, each holding at least one item. */
const monthsArbitrary = fc
  .uniqueArray(fc.tuple(fc.integer({ min: 1990, max: 2030 }), fc.integer({ min: 1, max: 12 })), {
    selector: ([y, m]) => y * 100 + m,
    maxLength: 30,
  })
  .chain((keys) =>
    fc
      .tuple(...keys.map(() => fc.tuple(fc.nat(300), fc.nat(40)).filter(([p, v]) => p + v > 0)))
      .map((counts) =>
        keys
          .map(([y, m], i) => month(`${y}-${String(m).padStart(2, '0')}`, counts[i]![0], counts[i]![1]))
          .sort((a, b) => b.month.localeCompare(a.month)),
      ),
  );

/** The month of a row found by walking down from the top: what the binary search must agree with. */
function monthOfRowByWalking(timeline: Timeline, row: number): number {
  let index = 0;
  timeline.headerRows.forEach((headerRow, i) => {
    if (headerRow <= row) index = i;
  });
  return index;
}

describe("the gallery's timeline, laid out from the months' counts alone", () => {
  it('each month is its heading, then rows of tiles holding every item once, the last row partly filled', () => {
    const timeline = buildTimeline([month('2024-05', 5, 2), month('2023-12', 3)], 3);
    expect(timeline.rows).toEqual([
      { kind: 'header', month: '2024-05', count: 7, photos: 5, videos: 2 },
      { kind: 'tiles', month: '2024-05', start: 0, count: 3, monthCount: 7 },
      { kind: 'tiles', month: '2024-05', start: 3, count: 3, monthCount: 7 },
      { kind: 'tiles', month: '2024-05', start: 6, count: 1, monthCount: 7 },
      { kind: 'header', month: '2023-12', count: 3, photos: 3, videos: 0 },
      { kind: 'tiles', month: '2023-12', start: 0, count: 3, monthCount: 3 },
    ]);
    expect(timeline.headerRows).toEqual([0, 4]);
    expect(timeline.total).toBe(10);
  });

  it('an empty gallery has no rows', () => {
    expect(buildTimeline([], 4)).toEqual({ rows: [], headerRows: [], months: [], total: 0 });
  });

  it('for any months and any width, every item has exactly one place, in order, and no row is wider than the columns', () => {
    fc.assert(
      fc.property(monthsArbitrary, fc.integer({ min: 1, max: 12 }), (months, columns) => {
        const timeline = buildTimeline(months, columns);
        expect(timeline.total).toBe(months.reduce((sum, m) => sum + m.photos + m.videos, 0));
        expect(timeline.headerRows.map((row) => timeline.rows[row])).toEqual(
          months.map((m) => ({ kind: 'header', month: m.month, count: m.photos + m.videos, photos: m.photos, videos: m.videos })),
        );
        for (const [i, m] of months.entries()) {
          const end = timeline.headerRows[i + 1] ?? timeline.rows.length;
          const tiles = timeline.rows.slice(timeline.headerRows[i]! + 1, end);
          const places = tiles.flatMap((row) =>
            row.kind === 'tiles' ? Array.from({ length: row.count }, (_, k) => row.start + k) : [Number.NaN],
          );
          expect(places).toEqual(Array.from({ length: m.photos + m.videos }, (_, k) => k));
          expect(tiles.every((row) => row.kind === 'tiles' && row.month === m.month && row.count >= 1 && row.count <= columns)).toBe(true);
          // Only the month's last row may be short.
          expect(tiles.slice(0, -1).every((row) => row.kind === 'tiles' && row.count === columns)).toBe(true);
        }
      }),
    );
  });

  it('the month of any row is the heading at or above it (what the scrubber and the sticky heading show)', () => {
    fc.assert(
      fc.property(
        monthsArbitrary.filter((months) => months.length > 0),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        (months, columns, pick) => {
          const timeline = buildTimeline(months, columns);
          const row = pick % timeline.rows.length;
          expect(monthIndexOfRow(timeline, row)).toBe(monthOfRowByWalking(timeline, row));
        },
      ),
    );
    const timeline = buildTimeline([month('2024-05', 9), month('2024-04', 1), month('2024-01', 4)], 4);
    // Headings at rows 0, 4 and 6.
    expect([0, 1, 3, 4, 5, 6, 7, 8].map((row) => monthIndexOfRow(timeline, row))).toEqual([0, 0, 0, 1, 1, 2, 2, 2]);
  });

  it('months are named in UTC, as the server counts them: the first and last month of a year on any device', () => {
    // TZ is America/New_York here: the first instant of January in UTC is still December locally.
    const inUtc = (year: number, monthIndex: number, short = false) =>
      new Intl.DateTimeFormat(undefined, { month: short ? 'short' : 'long', year: 'numeric', timeZone: 'UTC' }).format(
        Date.UTC(year, monthIndex, 1),
      );
    expect(monthLabel('2024-01')).toBe(inUtc(2024, 0));
    expect(monthLabel('2024-01')).not.toBe(inUtc(2023, 11));
    expect(monthLabel('2023-12')).toBe(inUtc(2023, 11));
    expect(monthLabel('2024-02', true)).toBe(inUtc(2024, 1, true));
    expect(new Set(Array.from({ length: 12 }, (_, i) => monthLabel(`2024-${String(i + 1).padStart(2, '0')}`))).size).toBe(12);
  });
});
