import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnsFor } from './grid.ts';

describe('the photo grid', () => {
  it('about four columns on a phone, tiles of about 170 px on wider screens, never fewer than 3 nor more than 12', () => {
    expect(columnsFor(360)).toBe(4);
    expect(columnsFor(390)).toBe(4);
    expect(columnsFor(1280)).toBe(8);
    expect(columnsFor(200)).toBe(3);
    expect(columnsFor(0)).toBe(3);
    expect(columnsFor(3840)).toBe(12);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 10_000 }), (a, b) => {
        const [narrow, wide] = a <= b ? [a, b] : [b, a];
        const columns = columnsFor(wide);
        expect(columns).toBeGreaterThanOrEqual(3);
        expect(columns).toBeLessThanOrEqual(12);
        // Wider never means fewer columns, except where the phone's smaller tiles end (600 px).
        if (narrow >= 600 || wide < 600) expect(columnsFor(narrow)).toBeLessThanOrEqual(columns);
      }),
    );
  });
});
