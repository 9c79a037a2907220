import assert from 'node:assert/strict';
import { test } from 'node:test';
import { archiveParts, isContentFile, isSnapshotFile, PART_FILE, shownName, SNAPSHOT_ID } from '../../src/store/archives/archive-names.ts';

test('a name read from a backup never leads out of it: "..", empty parts, separators and drive letters are refused', () => {
  assert.deepEqual(archiveParts('content/internal/ab/01JD5ZZZab'), ['content', 'internal', 'ab', '01JD5ZZZab']);
  assert.deepEqual(archiveParts('snapshots/20261125T031500Z-4f2a9c/manifest.json'), [
    'snapshots',
    '20261125T031500Z-4f2a9c',
    'manifest.json',
  ]);
  for (const bad of [
    'content/../../etc/passwd',
    '../hearth.db',
    'content/internal/ab/..',
    '/etc/passwd',
    'content//ab/x',
    'content/internal\\..\\x/y',
    'C:/Windows/x',
    'content/.hidden/x',
    'content/internal/ab/x\u202Egpj',
    '',
  ])
    assert.equal(archiveParts(bad), null, bad);
});

test("only Hearth's shapes are clean-up candidates: ids in id folders under content/, a snapshot's own lowercase files, hex .part files", () => {
  assert.ok(isContentFile('content/internal/ab/01JD5ZZZZZZZZZZZZZZZZZZZab'));
  assert.ok(isContentFile('content/01JD5LIBRARYXXXXXXXXXXXXXX/9f/abc_DEF-9f'));
  for (const theirs of [
    'content/notes.txt',
    'content/internal/ab/photo.jpg',
    'content/Family Photos/2024/IMG',
    'content/internal',
    'snapshots/x/y',
  ])
    assert.ok(!isContentFile(theirs), theirs);
  assert.ok(isSnapshotFile('snapshots/20261125T031500Z-4f2a9c/hearth.db', '20261125T031500Z-4f2a9c'));
  assert.ok(!isSnapshotFile('snapshots/20261125T031500Z-4f2a9c/Notes.TXT', '20261125T031500Z-4f2a9c'));
  assert.ok(!isSnapshotFile('snapshots/20261125T031500Z-4f2a9c/photos/a.db', '20261125T031500Z-4f2a9c'));
  assert.ok(SNAPSHOT_ID.test('20261125T031500Z-4f2a9c'));
  assert.ok(!SNAPSHOT_ID.test('My old backup') && !SNAPSHOT_ID.test('2026-11-25'));
  assert.ok(PART_FILE.test('0123456789abcdef.part'));
  assert.ok(!PART_FILE.test('notes.part') && !PART_FILE.test('0123456789abcdef.part.txt'));
});

test("someone else's name is shown to the owner as … : a right-to-left mark or a control character never reaches the page", () => {
  assert.equal(shownName('hearth-backup/tmp/evil\u202Etxt.exe'), 'hearth-backup/tmp/…');
  assert.equal(shownName('hearth-backup/tmp/line\nbreak'), 'hearth-backup/tmp/…');
  assert.equal(shownName('hearth-backup/content/internal'), 'hearth-backup/content/internal');
});
