import { describe, expect, test } from 'vitest';
import type { Node } from '../../api/types.ts';
import type { Selection } from './selection.ts';
import { newClicks, rangeOf, withShiftRange } from './range.ts';

const nodes = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }) as Node);

/** A selection that only keeps what it is told (enough to see what a click chose). */
function recording(): Selection & { chosen: Set<string> } {
  const chosen = new Set<string>();
  return {
    chosen,
    active: true,
    count: 0,
    has: (id) => chosen.has(id),
    countIn: () => 0,
    items: () => [],
    start: (item) => void (item && chosen.add(item.id)),
    toggle: (item) => void (chosen.has(item.id) ? chosen.delete(item.id) : chosen.add(item.id)),
    set: (items, on) => items.forEach((item) => (on ? chosen.add(item.id) : chosen.delete(item.id))),
    clear: () => chosen.clear(),
  };
}

describe('shift-click chooses a run of tiles, as a file manager does', () => {
  test('the run from the last one chosen to this one, either way round', () => {
    expect(rangeOf(nodes, 'b', 'd').map((n) => n.id)).toEqual(['b', 'c', 'd']);
    expect(rangeOf(nodes, 'd', 'b').map((n) => n.id)).toEqual(['b', 'c', 'd']);
    // The last one chosen is no longer shown: just this one.
    expect(rangeOf(nodes, 'gone', 'c').map((n) => n.id)).toEqual(['c']);
  });

  test('a plain click toggles one; a shift-click adds the run since the last click', () => {
    const selection = recording();
    const clicks = newClicks();
    const ranged = withShiftRange(selection, nodes, clicks);
    ranged.start(nodes[0]);
    clicks.held(true);
    ranged.toggle(nodes[3]!);
    expect([...selection.chosen].sort()).toEqual(['a', 'b', 'c', 'd']);
    clicks.held(false);
    ranged.toggle(nodes[1]!);
    expect(selection.has('b')).toBe(false);
  });
});
