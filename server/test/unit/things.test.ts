/**
 * Which things are kept (the kinds a family looks for, where the model is fairly sure) and which
 * words of a search name them (whole words, plurals and everyday names).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keptThings, MIN_THING_SCORE } from '../../src/media/things.ts';
import { thingLabelsOf } from '../../src/services/photos/thing-words.ts';

test('only the kinds a family searches for, only where the model is fairly sure, surest first, boxes inside the picture', () => {
  const kept = keptThings([
    { label: 'person', score: 0.8, boxRaw: [0, 0, 1, 1] },
    { label: 'tie', score: 0.6, boxRaw: [0.1, 0.1, 0.1, 0.1] },
    { label: 'boat', score: 0.32, boxRaw: [0.41, 0.16, 0.3, 0.53] },
    { label: 'dog', score: 0.7, boxRaw: [-0.01, 0.5, 0.6, 0.6] },
    { label: 'cat', score: MIN_THING_SCORE - 0.01, boxRaw: [0.2, 0.2, 0.2, 0.2] },
  ]);
  assert.deepEqual(
    kept.map((t) => t.label),
    ['dog', 'boat'],
  );
  const dog = kept[0]!;
  assert.deepEqual([dog.x, dog.y], [0, 0.5]);
  assert.ok(dog.x + dog.w <= 1 && dog.y + dog.h <= 1, 'the box stays inside the picture');
});

test('a search word names the things it means: plurals, everyday names, groups; never part of a word', () => {
  assert.deepEqual(thingLabelsOf('dog'), ['dog']);
  assert.deepEqual(thingLabelsOf('dogs'), ['dog']);
  assert.deepEqual(thingLabelsOf('puppies'), ['dog']);
  assert.deepEqual(thingLabelsOf('bike'), ['bicycle']);
  assert.deepEqual(thingLabelsOf('bicycles'), ['bicycle']);
  assert.deepEqual(thingLabelsOf('ship'), ['boat']);
  assert.deepEqual([...thingLabelsOf('pets')].sort(), ['cat', 'dog']);
  assert.deepEqual(thingLabelsOf('teddy'), ['teddy bear']);
  for (const word of ['do', 'ca', 'person', 'people', 'tie', 'constructor', 'toString', 'grandma']) {
    assert.deepEqual(thingLabelsOf(word), [], word);
  }
});
