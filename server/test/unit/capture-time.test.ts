import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { captureTime, orientedSize } from '../../src/media/capture-time.ts';
import { videoFields } from '../../src/media/video-poster.ts';

/** exif-reader hands DateTimeOriginal over as a Date built from the EXIF fields read as UTC. */
const exifDate = (y: number, mo: number, d: number, h: number, mi: number, s: number) => new Date(Date.UTC(y, mo - 1, d, h, mi, s));

describe('captureTime', () => {
  test('a DateTimeOriginal without an offset is read as UTC: the wall-clock time the camera showed', () => {
    assert.equal(captureTime({ DateTimeOriginal: exifDate(2021, 7, 4, 10, 20, 30) }), Date.UTC(2021, 6, 4, 10, 20, 30));
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30' }), Date.UTC(2021, 6, 4, 10, 20, 30));
  });

  test('OffsetTimeOriginal +02:00 moves the capture time two hours earlier in UTC', () => {
    assert.equal(
      captureTime({ DateTimeOriginal: exifDate(2021, 7, 4, 10, 20, 30), OffsetTimeOriginal: '+02:00' }),
      Date.UTC(2021, 6, 4, 8, 20, 30),
    );
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: '+02:00' }), Date.UTC(2021, 6, 4, 8, 20, 30));
  });

  test('OffsetTimeOriginal -05:30 moves the capture time five and a half hours later in UTC', () => {
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: '-05:30' }), Date.UTC(2021, 6, 4, 15, 50, 30));
  });

  test('an offset across midnight changes the UTC date', () => {
    assert.equal(captureTime({ DateTimeOriginal: '2021:01:01 01:00:00', OffsetTimeOriginal: '+09:00' }), Date.UTC(2020, 11, 31, 16, 0, 0));
  });

  test('SubSecTimeOriginal adds fractions of a second: "25" is 250 ms, "5" is 500 ms, "123456" is 123 ms', () => {
    const base = Date.UTC(2021, 6, 4, 10, 20, 30);
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', SubSecTimeOriginal: '25' }), base + 250);
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', SubSecTimeOriginal: '5' }), base + 500);
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', SubSecTimeOriginal: '123456' }), base + 123);
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', SubSecTimeOriginal: ' 07 ' }), base + 70);
  });

  test('subseconds and an offset together are both applied', () => {
    assert.equal(
      captureTime({ DateTimeOriginal: exifDate(2021, 7, 4, 10, 20, 30), SubSecTimeOriginal: '25', OffsetTimeOriginal: '+02:00' }),
      Date.UTC(2021, 6, 4, 8, 20, 30, 250),
    );
  });

  test('subseconds that are not digits are ignored', () => {
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', SubSecTimeOriginal: 'ab' }), Date.UTC(2021, 6, 4, 10, 20, 30));
  });

  test('an unreadable offset is ignored rather than failing the capture time', () => {
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', OffsetTimeOriginal: 'soon' }), Date.UTC(2021, 6, 4, 10, 20, 30));
  });

  test('without DateTimeOriginal the CreateDate (DateTimeDigitized) is the capture time', () => {
    assert.equal(captureTime({ DateTimeDigitized: exifDate(2019, 3, 2, 1, 2, 3) }), Date.UTC(2019, 2, 2, 1, 2, 3));
    assert.equal(captureTime({ DateTimeDigitized: '2019:03:02 01:02:03', OffsetTimeOriginal: '-01:00' }), Date.UTC(2019, 2, 2, 2, 2, 3));
  });

  test('DateTimeOriginal wins over CreateDate when both are present', () => {
    assert.equal(
      captureTime({ DateTimeOriginal: '2021:07:04 10:20:30', DateTimeDigitized: '2022:01:01 00:00:00' }),
      Date.UTC(2021, 6, 4, 10, 20, 30),
    );
  });

  test('a modification date alone (IFD0 DateTime) is not a capture time', () => {
    assert.equal(captureTime({}, { DateTime: '2023:05:06 07:08:09', Make: 'Editor' }), null);
    assert.equal(captureTime(undefined, { DateTime: exifDate(2023, 5, 6, 7, 8, 9) }), null);
  });

  test('garbage, placeholder and missing dates give null, never a default', () => {
    assert.equal(captureTime(undefined, undefined), null);
    assert.equal(captureTime({}), null);
    assert.equal(captureTime({ DateTimeOriginal: 'garbage' }), null);
    assert.equal(captureTime({ DateTimeOriginal: '0000:00:00 00:00:00' }), null);
    assert.equal(captureTime({ DateTimeOriginal: '2021:13:01 00:00:00' }), null);
    assert.equal(captureTime({ DateTimeOriginal: '    :  :     :  :  ' }), null);
    assert.equal(captureTime({ DateTimeOriginal: new Date(Number.NaN) }), null);
    assert.equal(captureTime({ DateTimeOriginal: 1_600_000_000 }), null);
    assert.equal(captureTime({ DateTimeOriginal: Buffer.from('2021:07:04 10:20:30') }), null);
  });
});

describe('orientedSize', () => {
  test('orientations 1 to 4 keep width and height; 5 to 8 swap them', () => {
    for (const orientation of [1, 2, 3, 4])
      assert.deepEqual(orientedSize(400, 200, orientation), { width: 400, height: 200 }, `orientation ${orientation}`);
    for (const orientation of [5, 6, 7, 8])
      assert.deepEqual(orientedSize(400, 200, orientation), { width: 200, height: 400 }, `orientation ${orientation}`);
  });

  test('no orientation, or a value outside 1 to 8, keeps the stored size', () => {
    assert.deepEqual(orientedSize(400, 200, undefined), { width: 400, height: 200 });
    assert.deepEqual(orientedSize(400, 200, 0), { width: 400, height: 200 });
    assert.deepEqual(orientedSize(400, 200, 9), { width: 400, height: 200 });
  });
});

/** The fields of videoFields this suite is about (its details have a suite of their own). */
function sizeAndTime(probe: Parameters<typeof videoFields>[0]) {
  const { width, height, takenAt } = videoFields(probe);
  return { width, height, takenAt };
}

describe('videoFields', () => {
  test('width, height and creation_time are read from ffprobe output', () => {
    assert.deepEqual(
      sizeAndTime({ streams: [{ width: 320, height: 240 }], format: { tags: { creation_time: '2020-01-02T03:04:05.000000Z' } } }),
      {
        width: 320,
        height: 240,
        takenAt: Date.UTC(2020, 0, 2, 3, 4, 5),
      },
    );
  });

  test('a display matrix rotation of 90 or -90 swaps width and height; 180 does not', () => {
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, side_data_list: [{ rotation: -90 }] }] }), {
      width: 1080,
      height: 1920,
      takenAt: null,
    });
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, side_data_list: [{}, { rotation: 90 }] }] }), {
      width: 1080,
      height: 1920,
      takenAt: null,
    });
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, side_data_list: [{ rotation: 180 }] }] }), {
      width: 1920,
      height: 1080,
      takenAt: null,
    });
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, side_data_list: [{ rotation: 270 }] }] }), {
      width: 1080,
      height: 1920,
      takenAt: null,
    });
  });

  test('the older rotate tag is honoured like the display matrix', () => {
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, tags: { rotate: '90' } }] }), {
      width: 1080,
      height: 1920,
      takenAt: null,
    });
    assert.deepEqual(sizeAndTime({ streams: [{ width: 1920, height: 1080, tags: { rotate: '0' } }] }), {
      width: 1920,
      height: 1080,
      takenAt: null,
    });
  });

  test('a missing, zero (the QuickTime placeholder) or unreadable creation_time gives no capture time', () => {
    assert.equal(sizeAndTime({ streams: [{ width: 2, height: 2 }] }).takenAt, null);
    assert.equal(
      sizeAndTime({ streams: [{ width: 2, height: 2 }], format: { tags: { creation_time: '1970-01-01T00:00:00.000000Z' } } }).takenAt,
      null,
    );
    assert.equal(sizeAndTime({ streams: [{ width: 2, height: 2 }], format: { tags: { creation_time: 'yesterday' } } }).takenAt, null);
  });

  test('a file without a video stream has no size', () => {
    assert.deepEqual(sizeAndTime({}), { width: null, height: null, takenAt: null });
    assert.deepEqual(sizeAndTime({ streams: [] }), { width: null, height: null, takenAt: null });
  });
});

describe('plausible capture times', () => {
  const now = Date.UTC(2026, 5, 15);

  test('a date outside 1900 to next year is no capture time, whether exif-reader rolled it into a Date or it is a string', () => {
    // exif-reader turns "9999:99:99 99:99:99" into a Date in the year 10007.
    assert.equal(captureTime({ DateTimeOriginal: exifDate(9999, 99, 99, 99, 99, 99) }, undefined, now), null);
    assert.equal(captureTime({ DateTimeOriginal: '9999:99:99 99:99:99' }, undefined, now), null);
    assert.equal(captureTime({ DateTimeOriginal: exifDate(1899, 12, 31, 23, 59, 59) }, undefined, now), null);
    assert.equal(captureTime({ DateTimeOriginal: '2028:01:01 00:00:00' }, undefined, now), null);
    assert.equal(captureTime({ DateTimeOriginal: '2021:07:04 25:00:00' }, undefined, now), null);
  });

  test('the first moment of 1900 and the last of next year still count', () => {
    assert.equal(captureTime({ DateTimeOriginal: '1900:01:01 00:00:00' }, undefined, now), Date.UTC(1900, 0, 1));
    assert.equal(captureTime({ DateTimeOriginal: exifDate(2027, 12, 31, 23, 59, 59) }, undefined, now), Date.UTC(2027, 11, 31, 23, 59, 59));
  });

  test('a video creation_time in the year 9999 is no capture time either', () => {
    assert.equal(sizeAndTime({ format: { tags: { creation_time: '9999-01-01T00:00:00Z' } } }).takenAt, null);
  });
});
