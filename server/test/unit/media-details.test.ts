/**
 * What a file says of its zone, place, camera and length is read as cameras write it, and
 * what no camera could mean (a zone of +23:00, a position of 0,0 or past the poles, an empty
 * make) is left out rather than shown. Places are named offline, sensibly for a family.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseOffsetMinutes, photoDetails } from '../../src/media/details.ts';
import { countryName, countryWords, Places } from '../../src/media/places.ts';
import { parseIso6709, summaryTags, videoDetails } from '../../src/media/video-details.ts';

describe('zones', () => {
  test('"+01:00", "-0330" and "Z" are minutes east of UTC; anything else is no zone', () => {
    assert.equal(parseOffsetMinutes('+01:00'), 60);
    assert.equal(parseOffsetMinutes('-03:30'), -210);
    assert.equal(parseOffsetMinutes('-0330'), -210);
    assert.equal(parseOffsetMinutes('+14:00'), 840);
    assert.equal(parseOffsetMinutes('Z'), 0);
    for (const broken of ['+23:00', '-13:00', '+01:75', 'soon', '', '  :  ', 60, undefined])
      assert.equal(parseOffsetMinutes(broken), null, String(broken));
  });
});

describe('photo details from EXIF', () => {
  test('GPS in degrees, minutes and seconds with its hemisphere; camera, lens and exposure', () => {
    const details = photoDetails({
      Image: { Make: 'Google\u0000', Model: ' Pixel 8 ' },
      Photo: {
        OffsetTimeOriginal: '+01:00',
        LensModel: 'back camera',
        FNumber: 1.68,
        ExposureTime: 1 / 120,
        ISOSpeedRatings: 50,
        FocalLength: 6.9,
      },
      GPSInfo: { GPSLatitudeRef: 'N', GPSLatitude: [38, 42, 38.52], GPSLongitudeRef: 'W', GPSLongitude: [9, 8, 11.76] },
    });
    assert.deepEqual(details, {
      takenOffset: 60,
      durationMs: null,
      latitude: 38.7107,
      longitude: -9.1366,
      cameraMake: 'Google',
      cameraModel: 'Pixel 8',
      lens: 'back camera',
      fNumber: 1.68,
      exposureTime: 1 / 120,
      iso: 50,
      focalLength: 6.9,
    });
  });

  test('no fix (0,0), a latitude past the pole, empty text and absurd exposures are left out', () => {
    const zero = photoDetails({ GPSInfo: { GPSLatitudeRef: 'N', GPSLatitude: [0, 0, 0], GPSLongitudeRef: 'E', GPSLongitude: [0, 0, 0] } });
    assert.equal(zero.latitude, null);
    const pole = photoDetails({
      GPSInfo: { GPSLatitudeRef: 'N', GPSLatitude: [95, 0, 0], GPSLongitudeRef: 'E', GPSLongitude: [10, 0, 0] },
    });
    assert.equal(pole.latitude, null);
    const broken = photoDetails({
      Image: { Make: '   ', Model: 42 },
      Photo: { FNumber: 0, ExposureTime: -1, ISOSpeedRatings: [200, 400], FocalLength: Number.NaN },
      GPSInfo: { GPSLatitude: ['a'] },
    });
    assert.equal(broken.cameraMake, null);
    assert.equal(broken.cameraModel, null);
    assert.equal(broken.fNumber, null);
    assert.equal(broken.exposureTime, null);
    assert.equal(broken.iso, 200, 'the first of the ISO values a camera lists');
    assert.equal(broken.focalLength, null);
    assert.equal(broken.latitude, null);
  });
});

describe('video details', () => {
  test('ISO 6709 as phones write it: degrees, degrees and minutes, with altitude or without', () => {
    assert.deepEqual(parseIso6709('+38.7107-009.1366+020.000/'), { latitude: 38.7107, longitude: -9.1366 });
    assert.deepEqual(parseIso6709('-33.8568+151.2153/'), { latitude: -33.8568, longitude: 151.2153 });
    assert.deepEqual(parseIso6709('+3842.642-00908.196/'), { latitude: 38.7107, longitude: -9.1366 });
    for (const broken of ['', 'here', '+00.0000+000.0000/', '+95.0000+010.0000/', undefined])
      assert.equal(parseIso6709(broken), null, String(broken));
  });

  test("an iPhone's creation date gives the instant and its zone; without it, the UTC creation time and no zone", () => {
    const iphone = videoDetails(
      { creation_time: '2024-08-03T19:15:00.000000Z', 'com.apple.quicktime.creationdate': '2024-08-03T20:15:00+0100' },
      2.002,
    );
    assert.equal(iphone.takenAt, Date.UTC(2024, 7, 3, 19, 15));
    assert.equal(iphone.details.takenOffset, 60);
    assert.equal(iphone.details.durationMs, 2002);
    const plain = videoDetails({ creation_time: '2020-01-02T03:04:05.000000Z', location: '+48.8584+002.2945/' }, null);
    assert.equal(plain.takenAt, Date.UTC(2020, 0, 2, 3, 4, 5));
    assert.equal(plain.details.takenOffset, null);
    assert.equal(plain.details.latitude, 48.8584);
    assert.equal(videoDetails({}, 0).details.durationMs, null);
  });

  test("ffmpeg's summary (no ffprobe): the container's tags and its duration, not a stream's", () => {
    const summary = [
      "Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'clip.mov':",
      '  Metadata:',
      '    major_brand     : qt',
      '    creation_time   : 2024-08-03T19:15:00.000000Z',
      '    com.apple.quicktime.location.ISO6709: +38.7107-009.1366+020.000/',
      '  Duration: 00:01:02.50, start: 0.000000, bitrate: 27 kb/s',
      '  Stream #0:0[0x1](und): Video: h264',
      '    Metadata:',
      '      creation_time   : 1999-01-01T00:00:00.000000Z',
    ].join('\n');
    const { tags, durationSeconds } = summaryTags(summary);
    assert.equal(durationSeconds, 62.5);
    assert.equal(tags.creation_time, '2024-08-03T19:15:00.000000Z');
    assert.equal(tags['com.apple.quicktime.location.ISO6709'], '+38.7107-009.1366+020.000/');
  });
});

describe('places, offline', () => {
  test('is not loaded until the first position is asked, then names towns as a family would', async () => {
    const places = new Places();
    assert.equal(places.loaded, false);
    const at = (lat: number, lon: number) => places.placeOf(lat, lon);
    // Two photos at once load the table once.
    const [lisbon, again] = await Promise.all([at(38.7107, -9.1366), at(38.7107, -9.1366)]);
    assert.deepEqual(lisbon, { town: 'Lisbon', country: 'PT' });
    assert.deepEqual(again, lisbon);
    assert.equal(places.loaded, true);
    // Big cities reach further than the suburbs around them, and sections of a city are not towns.
    assert.deepEqual(await at(48.8584, 2.2945), { town: 'Paris', country: 'FR' });
    assert.deepEqual(await at(51.5007, -0.1246), { town: 'London', country: 'GB' });
    assert.deepEqual(await at(40.758, -73.9855), { town: 'New York City', country: 'US' });
    // A small town keeps its own name beside a city across the border.
    assert.deepEqual(await at(48.5727, 7.8153), { town: 'Kehl', country: 'DE' });
    assert.deepEqual(await at(38.7979, -9.388), { town: 'Sintra', country: 'PT' });
    // In the middle of the ocean: nowhere.
    assert.equal(await at(30, -40), null);
  });

  test('countries by their English names, and the other names families type', () => {
    assert.equal(countryName('PT'), 'Portugal');
    assert.equal(countryName('ZZZ'), 'ZZZ');
    assert.match(countryWords('US'), /United States usa/);
    assert.match(countryWords('GB'), /United Kingdom uk .*england/);
  });
});
