/**
 * Grouping faces one at a time: a face joins the person it is most like when alike enough
 * (cosine >= SAME_PERSON), starts a person of its own otherwise, and never goes back to a person
 * it was moved out of.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FaceClusters, SAME_PERSON } from '../../src/services/photos/face-clusters.ts';

/** A unit vector in 4 dimensions at `cos` from the first axis, leaning towards axis `towards`. */
function face(cos: number, towards = 1): Float32Array {
  const v = new Float32Array(4);
  v[0] = cos;
  v[towards] = Math.sqrt(1 - cos * cos);
  return v;
}

test('a face alike enough joins the person; one too unlike starts a new person', () => {
  let n = 0;
  const clusters = new FaceClusters();
  const first = clusters.add(face(1), () => `p${n++}`);
  assert.deepEqual([first.id, first.created], ['p0', true]);
  const same = clusters.add(face(SAME_PERSON + 0.1), () => `p${n++}`);
  assert.deepEqual([same.id, same.created], ['p0', false]);
  const other = clusters.add(face(SAME_PERSON - 0.3, 2), () => `p${n++}`);
  assert.deepEqual([other.id, other.created], ['p1', true]);
  assert.equal(clusters.size, 2);
  // The sum grows with each face: its direction is the centroid compared next.
  assert.ok(Math.abs(same.sum[0]! - (1 + SAME_PERSON + 0.1)) < 1e-6);
});

test('a face is never put back with a person it was moved out of, and people load from their sums', () => {
  const clusters = new FaceClusters([
    { id: 'grandma', sum: face(1) },
    { id: 'grandpa', sum: face(0, 2) },
  ]);
  assert.equal(clusters.nearest(face(0.95)).index, 0);
  assert.equal(clusters.nearest(face(0.95), 'grandma').index, -1);
});
