import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../src/app-error.ts';
import { MAX_NAME_BYTES, nameBytes, shortenName } from '../../src/contract/names.ts';
import { cleanNodeName, nameKey, naturalSortKey, numberedName, searchKey } from '../../src/services/files/node-names.ts';

/** Asserts that `work` throws an AppError with code invalid_name naming `field`. */
function assertInvalidName(work: () => unknown, field = 'name'): void {
  assert.throws(work, (error: unknown) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, 'invalid_name');
    assert.equal(error.field, field);
    return true;
  });
}

/** Sorts names by their natural sort key the way SQLite's BINARY collation orders the stored keys (UTF-8 bytes). */
function naturalSort(names: string[]): string[] {
  return [...names].sort((a, b) => Buffer.compare(Buffer.from(naturalSortKey(a)), Buffer.from(naturalSortKey(b))));
}

describe('cleanNodeName', () => {
  test('a plain name is kept exactly as given', () => {
    assert.equal(cleanNodeName('Holiday photos 2024'), 'Holiday photos 2024');
    assert.equal(cleanNodeName('report.final.pdf'), 'report.final.pdf');
    assert.equal(cleanNodeName('...'), '...');
    assert.equal(cleanNodeName('.bashrc'), '.bashrc');
  });

  test('names are stored in NFC: a decomposed "école" becomes the composed one', () => {
    const decomposed = 'e\u0301cole';
    const cleaned = cleanNodeName(decomposed);
    assert.equal(cleaned, '\u00e9cole');
    assert.equal(cleaned.length, 5);
  });

  test('a name of exactly 255 bytes of UTF-8 is accepted, also when made of multi-byte characters', () => {
    assert.equal(cleanNodeName('a'.repeat(255)), 'a'.repeat(255));
    const twoByte = '\u00e9'.repeat(127) + 'a'; // 254 + 1 bytes
    assert.equal(Buffer.byteLength(twoByte), 255);
    assert.equal(cleanNodeName(twoByte), twoByte);
    const threeByte = '\u3042'.repeat(85); // 85 x 3 bytes
    assert.equal(Buffer.byteLength(threeByte), 255);
    assert.equal(cleanNodeName(threeByte), threeByte);
  });

  test('a name of 256 bytes is refused with name_too_long (not the generic invalid_name), counting bytes and not characters', () => {
    const assertTooLong = (name: string) =>
      assert.throws(
        () => cleanNodeName(name),
        (error: unknown) => error instanceof AppError && error.code === 'name_too_long' && error.field === 'name',
      );
    assertTooLong('a'.repeat(256));
    const twoByte = '\u00e9'.repeat(128); // 128 characters, 256 bytes
    assert.equal(twoByte.length, 128);
    assertTooLong(twoByte);
    assertTooLong('\u3042'.repeat(86));
    // A 4-byte emoji that would straddle the limit.
    assertTooLong('a'.repeat(252) + '\u{1F600}');
  });

  test('the byte limit applies to the NFC form: 255 bytes once composed is accepted even if the input was longer', () => {
    const decomposed = 'e\u0301'.repeat(127) + 'a'; // 3 bytes each decomposed, 2 composed
    assert.ok(Buffer.byteLength(decomposed) > 255);
    const cleaned = cleanNodeName(decomposed);
    assert.equal(Buffer.byteLength(cleaned), 255);
  });

  test('"/" and NUL anywhere in a name are refused with invalid_name', () => {
    for (const name of ['a/b', '/', '/leading', 'trailing/', 'a\0b', '\0']) {
      assertInvalidName(() => cleanNodeName(name));
    }
  });

  test('"." and ".." are refused with invalid_name', () => {
    assertInvalidName(() => cleanNodeName('.'));
    assertInvalidName(() => cleanNodeName('..'));
  });

  test('an empty or whitespace-only name is refused with invalid_name', () => {
    for (const name of ['', ' ', '   ', '\t', '\n', ' \t\n ']) {
      assertInvalidName(() => cleanNodeName(name));
    }
  });

  test('the error names the field it was given', () => {
    assertInvalidName(() => cleanNodeName('a/b', 'filename'), 'filename');
  });
});

describe('nameKey', () => {
  test('sibling names compare ignoring case', () => {
    assert.equal(nameKey('Photos'), nameKey('PHOTOS'));
    assert.equal(nameKey('Photos'), nameKey('photos'));
    assert.equal(nameKey('Report.PDF'), 'report.pdf');
    assert.equal(nameKey('\u00c9LISE'), nameKey('\u00e9lise'));
  });

  test('composed and decomposed spellings of a name have the same key', () => {
    assert.equal(nameKey('E\u0301cole'), nameKey('\u00e9cole'));
  });

  test('different names keep different keys (accents are not folded for uniqueness)', () => {
    assert.notEqual(nameKey('ecole'), nameKey('\u00e9cole'));
    assert.notEqual(nameKey('a'), nameKey('b'));
  });
});

describe('searchKey', () => {
  test('search keys fold case and accents: "ELISE" and "Élise" match', () => {
    assert.equal(searchKey('ELISE'), 'elise');
    assert.equal(searchKey('\u00c9lise.txt'), 'elise.txt');
    assert.equal(searchKey('E\u0301lise'), 'elise');
  });
});

describe('naturalSortKey', () => {
  test('numbers sort by value: "file 2" < "file 10" < "file 100"', () => {
    assert.ok(naturalSortKey('file 2') < naturalSortKey('file 10'));
    assert.ok(naturalSortKey('file 10') < naturalSortKey('file 100'));
    assert.deepEqual(naturalSort(['file 100', 'file 10', 'file 2', 'file 1']), ['file 1', 'file 2', 'file 10', 'file 100']);
  });

  test('every run of digits sorts by value, not only the last', () => {
    assert.deepEqual(naturalSort(['v10.1', 'v2.10', 'v2.9', 'v1.0']), ['v1.0', 'v2.9', 'v2.10', 'v10.1']);
    assert.deepEqual(naturalSort(['IMG_1000.jpg', 'IMG_999.jpg', 'IMG_99.jpg']), ['IMG_99.jpg', 'IMG_999.jpg', 'IMG_1000.jpg']);
  });

  test('letters sort ignoring case: "a" < "B" < "c"', () => {
    assert.ok(naturalSortKey('a') < naturalSortKey('B'));
    assert.ok(naturalSortKey('B') < naturalSortKey('c'));
    assert.deepEqual(naturalSort(['c', 'B', 'a', 'D']), ['a', 'B', 'c', 'D']);
    assert.equal(naturalSortKey('Apple'), naturalSortKey('apple'));
  });

  test('accented letters sort next to their plain letter: "école" sits beside "ecole", not after "z"', () => {
    assert.equal(naturalSortKey('\u00e9cole'), naturalSortKey('ecole'));
    assert.deepEqual(naturalSort(['zebra', '\u00e9cole', 'eagle', 'ezra', 'apple']), ['apple', 'eagle', '\u00e9cole', 'ezra', 'zebra']);
    // Upper case accented letters too.
    assert.deepEqual(naturalSort(['Zoo', '\u00c9lise', 'Emma', 'Eliott']), ['Eliott', '\u00c9lise', 'Emma', 'Zoo']);
  });

  test('leading zeros do not change the order: "file 02" sorts with "file 2", before "file 10"', () => {
    assert.equal(naturalSortKey('file 02'), naturalSortKey('file 2'));
    assert.equal(naturalSortKey('file 007'), naturalSortKey('file 7'));
    assert.ok(naturalSortKey('file 02') < naturalSortKey('file 10'));
    assert.ok(naturalSortKey('file 0') < naturalSortKey('file 1'));
    assert.equal(naturalSortKey('file 000'), naturalSortKey('file 0'));
  });

  test('a number sorts before letters at the same place, and a prefix before its longer names', () => {
    assert.deepEqual(naturalSort(['file b', 'file 9', 'file', 'file 2a', 'file 2']), ['file', 'file 2', 'file 2a', 'file 9', 'file b']);
  });
});

describe('numberedName', () => {
  test('a file keeps its extension after the number: "photo.jpg" -> "photo (1).jpg"', () => {
    assert.equal(numberedName('photo.jpg', 1, true), 'photo (1).jpg');
    assert.equal(numberedName('photo.jpg', 2, true), 'photo (2).jpg');
    assert.equal(numberedName('photo.jpg', 12, true), 'photo (12).jpg');
  });

  test('only the last extension is kept: "archive.tar.gz" -> "archive.tar (1).gz"', () => {
    assert.equal(numberedName('archive.tar.gz', 1, true), 'archive.tar (1).gz');
  });

  test('a folder keeps dots in its name: "v1.2" -> "v1.2 (1)"', () => {
    assert.equal(numberedName('v1.2', 1, false), 'v1.2 (1)');
    assert.equal(numberedName('photos.2024', 3, false), 'photos.2024 (3)');
  });

  test('a dot file is all name, no extension: ".bashrc" -> ".bashrc (1)"', () => {
    assert.equal(numberedName('.bashrc', 1, true), '.bashrc (1)');
    assert.equal(numberedName('.config.json', 1, true), '.config (1).json');
  });

  test('a file without extension gets the number at the end', () => {
    assert.equal(numberedName('README', 1, true), 'README (1)');
  });

  test('a name at the limit gives up the end of its base so that the number fits: never more than 255 bytes', () => {
    const long = `${'b'.repeat(251)}.jpg`;
    const numbered = numberedName(long, 1, true);
    assert.equal(nameBytes(numbered), MAX_NAME_BYTES);
    assert.match(numbered, /^b+ \(1\)\.jpg$/);
    assert.ok(nameBytes(numberedName(long, 1234, true)) <= MAX_NAME_BYTES);
    assert.ok(nameBytes(numberedName('\u3042'.repeat(85), 7, false)) <= MAX_NAME_BYTES);
  });
});

describe('shortenName (the web app offers it for an upload whose name is too long)', () => {
  test('a name that fits is left as it is', () => {
    assert.equal(shortenName('photo.jpg'), 'photo.jpg');
    assert.equal(shortenName('a'.repeat(255)), 'a'.repeat(255));
  });

  test('a 300-character name keeps its extension and fits in 255 bytes', () => {
    const short = shortenName(`${'Holiday in the mountains '.repeat(12)}.jpeg`);
    assert.ok(nameBytes(short) <= MAX_NAME_BYTES, String(nameBytes(short)));
    assert.ok(short.endsWith('mountains.jpeg') || short.endsWith('.jpeg'));
    assert.ok(short.startsWith('Holiday in the mountains Holiday'));
    // The cut does not leave a space before the extension, nor half a word.
    assert.doesNotMatch(short, /\s\.jpeg$/);
    assert.match(short, / (Holiday|in|the|mountains)\.jpeg$/);
  });

  test('one long word with no space near the cut is cut where it must be', () => {
    const short = shortenName(`${'x'.repeat(300)}.jpg`);
    assert.equal(short, `${'x'.repeat(251)}.jpg`);
  });

  test('the cut falls between characters as a person sees them: no half emoji, no accent without its letter', () => {
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // one emoji of 18 bytes
    const short = shortenName(`${family.repeat(20)}.png`);
    assert.ok(nameBytes(short) <= MAX_NAME_BYTES);
    assert.equal(short, `${family.repeat(Math.floor((MAX_NAME_BYTES - 4) / nameBytes(family)))}.png`);
    const decomposed = 'e\u0301'.repeat(120); // 3 bytes per letter with its accent
    const cut = shortenName(decomposed);
    assert.ok(nameBytes(cut) <= MAX_NAME_BYTES);
    assert.ok(cut.endsWith('e\u0301'), 'the last letter keeps its accent');
  });

  test('what the server then accepts: the shortened name passes cleanNodeName unchanged', () => {
    for (const name of [
      `${'\u00e9t\u00e9 '.repeat(80)}.mov`,
      `${'x'.repeat(400)}`,
      `.${'hidden'.repeat(60)}`,
      `${'y'.repeat(300)}.a-very-long-extension-indeed`,
    ]) {
      const short = shortenName(name);
      assert.equal(cleanNodeName(short), short, name);
    }
  });
});
