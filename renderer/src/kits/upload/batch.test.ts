import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, nameBytes } from '../../../../server/src/contract/names.ts';
import { afterClash, afterLongNames, fingerprintOf, sortAgainstFolder, tooLong, type Chosen, type Existing } from './batch.ts';

const file = (name: string, size = 10, lastModified = 1_700_000_000_000) =>
  new File([new Uint8Array(size)], name, { type: 'image/jpeg', lastModified });
const chosen = (name: string, size = 10): Chosen => ({ file: file(name, size), name });
const existingFile = (id: string, size: number): Existing => ({ id, type: 'file', size });
const folderOf = (entries: [string, Existing][]) => new Map(entries.map(([name, node]) => [name.toLowerCase(), node]));

describe('a batch of files meets its folder', () => {
  it('names over the limit (counted in bytes, not letters) are offered a shorter name; names that fit are not', () => {
    const fits = chosen('a'.repeat(MAX_NAME_BYTES - 4) + '.jpg');
    const over = chosen('a'.repeat(MAX_NAME_BYTES - 3) + '.jpg');
    // 130 letters but 256 bytes: over in bytes although short in letters.
    const accented = chosen('é'.repeat(126) + '.jpg');
    const shorter = tooLong([fits, over, accented]);
    expect([...shorter.keys()]).toEqual([over, accented]);
    for (const short of shorter.values()) {
      expect(nameBytes(short)).toBeLessThanOrEqual(MAX_NAME_BYTES);
      expect(short.endsWith('.jpg')).toBe(true);
    }
  });

  it('any long name gets a shorter one that fits and keeps its extension', () => {
    // Words of letters from several scripts, emoji with their modifiers included.
    const letter = fc.constantFrom('a', 'Z', 'é', 'ß', 'ж', '漢', '👍🏽', '👩‍👩‍👧', ' ', '-');
    fc.assert(
      fc.property(
        fc.string({ unit: letter, minLength: 1, maxLength: 300 }),
        fc.constantFrom('.jpg', '.HEIC', '.mp4', '.tar.gz'),
        (base, extension) => {
          const one = chosen('x' + base + 'x' + extension);
          const short = tooLong([one]).get(one);
          if (nameBytes(one.name) <= MAX_NAME_BYTES) return short === undefined;
          return (
            short !== undefined &&
            nameBytes(short) <= MAX_NAME_BYTES &&
            short.length > 0 &&
            short.endsWith(extension.slice(extension.lastIndexOf('.')))
          );
        },
      ),
    );
  });

  it('"shorten" sends the long ones under their shorter names, in the order chosen; "skip" leaves them out', () => {
    const a = chosen('short.jpg');
    const b = chosen('b'.repeat(300) + '.jpg');
    const c = chosen('also short.png');
    const shorter = tooLong([a, b, c]);
    const shortened = afterLongNames([a, b, c], shorter, 'shorten');
    expect(shortened.map((one) => one.name)).toEqual(['short.jpg', shorter.get(b), 'also short.png']);
    // The file itself is the one chosen: only the name it is sent under changes.
    expect(shortened[1]!.file).toBe(b.file);
    expect(afterLongNames([a, b, c], shorter, 'skip')).toEqual([a, c]);
  });

  it('a file of the same name and size is already there (names match ignoring case) and is not sent again', () => {
    const folder = folderOf([['Beach.JPG', existingFile('n1', 10)]]);
    const sorted = sortAgainstFolder([chosen('beach.jpg', 10)], folder);
    expect(sorted).toEqual({ alreadyHere: 1, fresh: [], clashing: [] });
  });

  it('a file of the same name and another size is a clash; a folder of that name is not; a new name is fresh', () => {
    const photo = existingFile('n1', 10);
    const folder = folderOf([
      ['Beach.jpg', photo],
      ['Holidays', { id: 'n2', type: 'folder', size: 0 }],
    ]);
    const clash = chosen('BEACH.jpg', 11);
    // Even an empty file, as "big" as a folder.
    const sameAsFolder = chosen('holidays', 0);
    const fresh = chosen('Boat.jpg');
    const sorted = sortAgainstFolder([clash, sameAsFolder, fresh], folder);
    expect(sorted.alreadyHere).toBe(0);
    expect(sorted.clashing).toEqual([{ chosen: clash, node: photo }]);
    expect(sorted.fresh).toEqual([sameAsFolder, fresh]);
  });

  it('the one answer for the clashing files: replace names the file each replaces, keep both sends them as new, skip sends none', () => {
    const clashing = [
      { chosen: chosen('a.jpg', 1), node: existingFile('na', 2) },
      { chosen: chosen('b.jpg', 1), node: existingFile('nb', 2) },
    ];
    expect(afterClash(clashing, 'replace').map((one) => [one.chosen.name, one.replaceNodeId])).toEqual([
      ['a.jpg', 'na'],
      ['b.jpg', 'nb'],
    ]);
    expect(afterClash(clashing, 'keep-both').map((one) => [one.chosen.name, one.replaceNodeId])).toEqual([
      ['a.jpg', null],
      ['b.jpg', null],
    ]);
    expect(afterClash(clashing, 'skip')).toEqual([]);
  });

  it("an upload is resumed only by the same account, for the same place, with the same file: never another account's", () => {
    const one = file('video.mp4', 10);
    const base = fingerprintOf('anna', one, 'folder-1', null);
    expect(fingerprintOf('anna', file('video.mp4', 10), 'folder-1', null)).toBe(base);
    expect(fingerprintOf('ben', one, 'folder-1', null)).not.toBe(base);
    expect(fingerprintOf('anna', one, 'folder-2', null)).not.toBe(base);
    expect(fingerprintOf('anna', one, null, null)).not.toBe(base);
    expect(fingerprintOf('anna', one, 'folder-1', 'node-9')).not.toBe(base);
    expect(fingerprintOf('anna', file('video.mp4', 11), 'folder-1', null)).not.toBe(base);
    expect(fingerprintOf('anna', file('video.mp4', 10, 1), 'folder-1', null)).not.toBe(base);
  });
});
