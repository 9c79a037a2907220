import { describe, expect, test } from 'vitest';
import { groupByDay } from './days.ts';

describe('groupByDay', () => {
  test('photos fall on the day of the clock where they were taken, each day once with the places of its photos', () => {
    const at = (iso: string) => Date.parse(iso);
    const days = groupByDay(
      [
        // 23:30 in Lisbon (GMT+1) on 3 August is 22:30 UTC: still the 3rd there.
        { id: 'a', taken_at: at('2024-08-03T22:30:00Z'), taken_offset: 60, created_at: 0, place: { town: 'Lisbon', country_code: 'PT' } },
        // 00:30 in Lisbon on the 4th is 23:30 UTC on the 3rd: the 4th there.
        { id: 'b', taken_at: at('2024-08-03T23:30:00Z'), taken_offset: 60, created_at: 0, place: { town: 'Sintra' } },
        { id: 'c', taken_at: at('2024-08-03T10:00:00Z'), created_at: 0, place: { town: 'Lisbon' } },
        { id: 'd', taken_at: at('2024-08-04T09:00:00Z'), created_at: 0 },
      ],
      'en-GB',
    );
    expect(days.map((d) => [d.key, d.title, d.places, d.items.map((i) => i.id)])).toEqual([
      ['2024-08-03', 'Saturday, 3 August 2024', ['Lisbon'], ['a', 'c']],
      ['2024-08-04', 'Sunday, 4 August 2024', ['Sintra'], ['b', 'd']],
    ]);
  });

  test('a photo that does not say when it was taken goes under the day it was uploaded, and a country stands for an unknown town', () => {
    const uploaded = new Date(2023, 0, 5, 12).getTime();
    const [day] = groupByDay([{ id: 'x', created_at: uploaded, place: { country_code: 'PT' } }], 'en-GB');
    expect(day).toMatchObject({ key: '2023-01-05', title: 'Thursday, 5 January 2023', places: ['Portugal'] });
  });
});
