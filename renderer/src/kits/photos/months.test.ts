import { describe, expect, it } from 'vitest';
import type { Node } from '../../api/types.ts';
import { groupByMonth, monthCountWords } from './months.ts';

const node = (id: string, taken: string | null, mime = 'image/jpeg', created = '2020-01-01T00:00:00Z'): Node =>
  ({
    id,
    name: `${id}.jpg`,
    mime_type: mime,
    created_at: Date.parse(created),
    ...(taken !== null && { taken_at: Date.parse(taken) }),
  }) as Node;

describe('groupByMonth', () => {
  it('puts photos under the month they were taken, newest month and newest photo first, counting videos apart', () => {
    const groups = groupByMonth([
      node('a', '2024-03-02T10:00:00Z'),
      node('b', '2024-07-20T10:00:00Z'),
      node('c', '2024-03-28T10:00:00Z', 'video/mp4'),
      node('d', null, 'image/jpeg', '2024-07-01T00:00:00Z'),
    ]);
    expect(groups.map((g) => [g.month, g.items.map((n) => n.id)])).toEqual([
      ['2024-07', ['b', 'd']],
      ['2024-03', ['c', 'a']],
    ]);
    expect(monthCountWords(groups[1]!)).toBe('1 photo, 1 video');
    expect(monthCountWords(groups[0]!)).toBe('2 photos');
  });

  it('uses the zone the photo was taken in, as the timeline does', () => {
    const late = { ...node('e', '2024-01-31T23:30:00Z'), taken_offset: 60 } as Node;
    expect(groupByMonth([late])[0]!.month).toBe('2024-02');
  });
});
