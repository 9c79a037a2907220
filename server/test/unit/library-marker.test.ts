import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { inspectFolder } from '../../src/store/content/content-stores.ts';
import { hasMarker, LIBRARY_MARKER, markerState, readMarker, writeMarker } from '../../src/store/content/library-marker.ts';
import { makeTempDir } from '../helpers/server.ts';

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function folderWithMarker(text: string | null): Promise<string> {
  const dir = await makeTempDir('hearth-marker-');
  dirs.push(dir);
  if (text !== null) fs.writeFileSync(path.join(dir, LIBRARY_MARKER), text);
  return dir;
}

test('every marker is read one way: the id on its first line (a library as added, or the internal library with its seal line), the database when it says one', async () => {
  const cases: [string, { id: string; database: string | null }][] = [
    ['01JLIBRARYID0000000000000', { id: '01JLIBRARYID0000000000000', database: null }],
    ['01JLIBRARYID0000000000000\n', { id: '01JLIBRARYID0000000000000', database: null }],
    ['internal\ndatabase 01JSERVERID00000000000000\n', { id: 'internal', database: '01JSERVERID00000000000000' }],
    ['01JLIBRARYID0000000000000\nsome later line\n', { id: '01JLIBRARYID0000000000000', database: null }],
  ];
  for (const [text, marker] of cases) {
    const dir = await folderWithMarker(text);
    assert.deepEqual(readMarker(dir), marker, JSON.stringify(text));
    assert.deepEqual(markerState(dir), { kind: 'names', ...marker }, JSON.stringify(text));
    assert.equal(hasMarker({ id: marker.id, path: dir }), true, JSON.stringify(text));
    assert.deepEqual(inspectFolder(dir), { kind: 'library', id: marker.id }, JSON.stringify(text));
  }
});

test('a marker a power cut emptied or garbled is damaged, a folder without one has none, and neither names a library', async () => {
  for (const text of ['', '\0\0\0\0', 'not an id!', '\ndatabase 01JSERVERID00000000000000\n']) {
    const dir = await folderWithMarker(text);
    assert.deepEqual(markerState(dir), { kind: 'damaged' }, JSON.stringify(text));
    assert.equal(readMarker(dir), null);
  }
  const bare = await folderWithMarker(null);
  assert.deepEqual(markerState(bare), { kind: 'missing' });
  assert.equal(hasMarker({ id: 'internal', path: bare }), false);
});

test('the marker written for a library and for the internal library reads back as written', async () => {
  const dir = await folderWithMarker(null);
  writeMarker(dir, '01JLIBRARYID0000000000000');
  assert.equal(
    fs.readFileSync(path.join(dir, LIBRARY_MARKER), 'utf8'),
    '01JLIBRARYID0000000000000',
    'the format libraries have always had',
  );
  writeMarker(dir, 'internal', '01JSERVERID00000000000000');
  assert.deepEqual(readMarker(dir), { id: 'internal', database: '01JSERVERID00000000000000' });
});
