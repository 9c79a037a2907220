import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { contentDisposition, ifRangeAllows, parseRange } from '../../src/http/range.ts';

describe('parseRange', () => {
  test('no Range header means the whole file', () => {
    assert.deepEqual(parseRange(undefined, 100), { kind: 'none' });
  });

  test('bytes=0-9 is the first ten bytes', () => {
    assert.deepEqual(parseRange('bytes=0-9', 100), { kind: 'range', range: { start: 0, end: 9 } });
  });

  test('bytes=10- runs from byte 10 to the last byte', () => {
    assert.deepEqual(parseRange('bytes=10-', 100), { kind: 'range', range: { start: 10, end: 99 } });
  });

  test('bytes=-5 is the last five bytes', () => {
    assert.deepEqual(parseRange('bytes=-5', 100), { kind: 'range', range: { start: 95, end: 99 } });
  });

  test('a suffix longer than the file is the whole file', () => {
    assert.deepEqual(parseRange('bytes=-500', 100), { kind: 'range', range: { start: 0, end: 99 } });
  });

  test('an end past the file is clamped to the last byte', () => {
    assert.deepEqual(parseRange('bytes=90-1000', 100), { kind: 'range', range: { start: 90, end: 99 } });
    assert.deepEqual(parseRange('bytes=0-100', 100), { kind: 'range', range: { start: 0, end: 99 } });
  });

  test('the last byte alone is a satisfiable range', () => {
    assert.deepEqual(parseRange('bytes=99-99', 100), { kind: 'range', range: { start: 99, end: 99 } });
    assert.deepEqual(parseRange('bytes=99-', 100), { kind: 'range', range: { start: 99, end: 99 } });
  });

  test('a start at or past the size is unsatisfiable', () => {
    assert.deepEqual(parseRange('bytes=100-', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=100-200', 100), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=5000-', 100), { kind: 'unsatisfiable' });
  });

  test('a zero-length suffix is unsatisfiable', () => {
    assert.deepEqual(parseRange('bytes=-0', 100), { kind: 'unsatisfiable' });
  });

  test('no range of an empty file can be satisfied', () => {
    assert.deepEqual(parseRange('bytes=0-', 0), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=0-9', 0), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange('bytes=-5', 0), { kind: 'unsatisfiable' });
    assert.deepEqual(parseRange(undefined, 0), { kind: 'none' });
  });

  test('header case and spaces around the numbers are tolerated', () => {
    assert.deepEqual(parseRange('Bytes = 1 - 2', 100), { kind: 'range', range: { start: 1, end: 2 } });
  });

  test('a malformed header, another unit or several ranges are ignored and the whole file is sent', () => {
    for (const header of [
      '',
      'bytes',
      'bytes=',
      'bytes=-',
      'bytes=abc',
      'bytes=1-x',
      'bytes=0.5-9',
      'bytes=-1-2',
      'items=0-9',
      'lines=0-9',
      'bytes=0-1,5-9',
      'bytes=0-1, 3-4',
      '0-9',
      'bytes 0-9',
    ]) {
      assert.deepEqual(parseRange(header, 100), { kind: 'none' }, header);
    }
  });

  test('an end before the start is ignored (the whole file), not unsatisfiable', () => {
    assert.deepEqual(parseRange('bytes=9-0', 100), { kind: 'none' });
    assert.deepEqual(parseRange('bytes=50-10', 100), { kind: 'none' });
  });
});

describe('ifRangeAllows', () => {
  const etag = '"01J0VERSIONID"';
  const lastModified = Date.UTC(2024, 4, 17, 10, 20, 30, 456);

  test('no If-Range lets the range apply', () => {
    assert.equal(ifRangeAllows(undefined, etag, lastModified), true);
  });

  test('the current strong ETag lets the range apply', () => {
    assert.equal(ifRangeAllows(etag, etag, lastModified), true);
    assert.equal(ifRangeAllows(` ${etag} `, etag, lastModified), true);
  });

  test('another ETag sends the whole file', () => {
    assert.equal(ifRangeAllows('"01J0OTHERVERSION"', etag, lastModified), false);
    assert.equal(ifRangeAllows('"01j0versionid"', etag, lastModified), false);
  });

  test('a weak ETag never lets the range apply, even with the same opaque value', () => {
    assert.equal(ifRangeAllows(`W/${etag}`, etag, lastModified), false);
    assert.equal(ifRangeAllows(`W/"other"`, etag, lastModified), false);
  });

  test('the exact Last-Modified HTTP date lets the range apply (milliseconds are not in HTTP dates)', () => {
    const httpDate = new Date(lastModified).toUTCString();
    assert.equal(httpDate, 'Fri, 17 May 2024 10:20:30 GMT');
    assert.equal(ifRangeAllows(httpDate, etag, lastModified), true);
  });

  test('any other date, earlier or later, sends the whole file', () => {
    assert.equal(ifRangeAllows(new Date(lastModified - 1000).toUTCString(), etag, lastModified), false);
    assert.equal(ifRangeAllows(new Date(lastModified + 1000).toUTCString(), etag, lastModified), false);
    assert.equal(ifRangeAllows('Thu, 01 Jan 1970 00:00:00 GMT', etag, lastModified), false);
  });

  test('a value that is neither an ETag nor a date sends the whole file', () => {
    assert.equal(ifRangeAllows('yesterday', etag, lastModified), false);
    assert.equal(ifRangeAllows('01J0VERSIONID', etag, lastModified), false);
  });
});

/** The parameters of a Content-Disposition value, unquoted. */
function dispositionParts(value: string): { kind: string; filename: string; filenameStar: string } {
  const match = /^(attachment|inline); filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+.^_`|~%-]+)$/.exec(value);
  assert.ok(match, `unexpected Content-Disposition: ${value}`);
  return { kind: match[1]!, filename: match[2]!, filenameStar: match[3]! };
}

describe('contentDisposition', () => {
  test('a plain ASCII name is the same in both parameters', () => {
    assert.equal(contentDisposition('attachment', 'report.pdf'), `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    assert.equal(contentDisposition('inline', 'photo.jpg'), `inline; filename="photo.jpg"; filename*=UTF-8''photo.jpg`);
  });

  test('a UTF-8 name is percent-encoded per RFC 8187 with an ASCII fallback', () => {
    const value = contentDisposition('attachment', 'Résumé été.pdf');
    assert.equal(value, `attachment; filename="Resume ete.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C3%A9t%C3%A9.pdf`);
    const parts = dispositionParts(value);
    assert.equal(decodeURIComponent(parts.filenameStar), 'Résumé été.pdf');
  });

  test('characters with no ASCII form become underscores in the fallback only', () => {
    const name = '家族の写真 📷.jpg';
    const parts = dispositionParts(contentDisposition('attachment', name));
    assert.match(parts.filename, /^[\x20-\x7e]+$/);
    assert.ok(parts.filename.endsWith('.jpg'));
    assert.ok(!parts.filename.includes('%'));
    assert.equal(decodeURIComponent(parts.filenameStar), name);
  });

  test('quotes and backslashes cannot break out of the quoted fallback', () => {
    const name = 'say "hi" \\ bye.txt';
    const value = contentDisposition('attachment', name);
    const parts = dispositionParts(value);
    assert.equal(parts.filename, 'say _hi_ _ bye.txt');
    assert.equal(decodeURIComponent(parts.filenameStar), name);
    assert.ok(parts.filenameStar.includes('%22') && parts.filenameStar.includes('%5C'));
  });

  test("characters RFC 8187 does not allow bare (' ( ) * ; , space) are percent-encoded", () => {
    const name = "it's (a) *star*; x,y.txt";
    const parts = dispositionParts(contentDisposition('attachment', name));
    for (const bare of ["'", '(', ')', '*', ';', ',', ' ']) assert.ok(!parts.filenameStar.includes(bare), bare);
    assert.equal(decodeURIComponent(parts.filenameStar), name);
  });

  test('control characters and line breaks never reach the header', () => {
    const value = contentDisposition('attachment', 'a\r\nSet-Cookie: x=1\t.txt');
    assert.ok(!/[\r\n\t]/.test(value));
    const parts = dispositionParts(value);
    assert.equal(decodeURIComponent(parts.filenameStar), 'a\r\nSet-Cookie: x=1\t.txt');
  });
});
