import { describe, expect, test } from 'vitest';
import type { Node } from '../../../api/types.ts';
import { isMedia, skippedWords, splitByOwner } from './rules.ts';

const node = (id: string, owner: string, mime = 'image/jpeg'): Node =>
  ({ id, owner_id: owner, mime_type: mime, type: 'file', name: `${id}.jpg` }) as Node;

describe('what a selection allows', () => {
  test('own photos are split from the ones others shared, in the order selected', () => {
    const split = splitByOwner([node('a', 'me'), node('b', 'emma'), node('c', 'me')], 'me');
    expect(split.own.map((n) => n.id)).toEqual(['a', 'c']);
    expect(split.others.map((n) => n.id)).toEqual(['b']);
  });

  test('only photos and videos go into albums', () => {
    expect(isMedia(node('a', 'me'))).toBe(true);
    expect(isMedia(node('v', 'me', 'video/mp4'))).toBe(true);
    expect(isMedia(node('d', 'me', 'application/pdf'))).toBe(false);
  });

  test('what was skipped names whose it is, plainly', () => {
    const names = new Map([['emma', 'Emma']]);
    const move = (them: string) => `move ${them}`;
    expect(skippedWords([], move, names)).toBeNull();
    expect(skippedWords([node('b', 'emma')], move, names)).toBe('One is Emma’s: only Emma can move it.');
    expect(skippedWords([node('b', 'emma'), node('c', 'emma')], move, names)).toBe('2 are Emma’s: only Emma can move them.');
    expect(skippedWords([node('b', 'emma'), node('c', 'bob')], (them) => `put ${them} in the trash`, names)).toBe(
      '2 are someone else’s: only their owner can put them in the trash.',
    );
  });
});
