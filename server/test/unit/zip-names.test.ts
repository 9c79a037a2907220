import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MAX_NAME_BYTES, nameBytes } from '../../src/contract/names.ts';
import { zipEntryNames, zipSafeName } from '../../src/services/files/zip-names.ts';

const files = (...names: string[]) => names.map((name) => ({ name, isFile: true }));

describe('zip entry names', () => {
  test('nothing an unzipper reads as a path survives: \\ becomes _, so ..\\..\\x cannot climb out of the folder it is unzipped into; C: is no drive', () => {
    assert.equal(zipSafeName('..\\..\\Startup\\run.bat'), '.._.._Startup_run.bat');
    assert.equal(zipSafeName('C:boot.ini'), 'C_boot.ini');
    assert.equal(zipSafeName('what? "this" <is> a|b*.txt'), 'what_ _this_ _is_ a_b_.txt');
    assert.equal(zipSafeName('Été 🌊 東京.jpg'), 'Été 🌊 東京.jpg');
  });

  test('names that clash ignoring case are numbered in order, around names that are their own', () => {
    assert.deepEqual(zipEntryNames(files('a.jpg', 'A.JPG', 'a (1).jpg', 'a.jpg')), ['a.jpg', 'A (2).JPG', 'a (1).jpg', 'a (3).jpg']);
  });

  test('folders keep their dots when numbered; names that become the same once made safe are numbered too', () => {
    assert.deepEqual(
      zipEntryNames([
        { name: 'v1.2', isFile: false },
        { name: 'v1.2', isFile: false },
      ]),
      ['v1.2', 'v1.2 (1)'],
    );
    assert.deepEqual(zipEntryNames(files('a:b.txt', 'a_b.txt')), ['a_b.txt', 'a_b (1).txt']);
  });

  test('a numbered name still fits in 255 bytes', () => {
    const long = `${'é'.repeat(125)}.jpg`;
    const [, second] = zipEntryNames(files(long, long));
    assert.ok(nameBytes(second!) <= MAX_NAME_BYTES);
    assert.match(second!, / \(1\)\.jpg$/);
  });
});
