import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { servedAs } from '../../src/http/served-type.ts';

const SAVED = { type: 'application/octet-stream', disposition: 'attachment' };

describe('servedAs', () => {
  test('every attachment is plain bytes, whatever the node says it is: a script or page typed as such would run on the origin', () => {
    for (const mime of [
      'text/javascript',
      'application/javascript',
      'text/html',
      'image/svg+xml',
      'text/plain',
      'application/json',
      'image/png',
      'video/mp4',
      'application/pdf',
      'text/css',
      null,
    ]) {
      assert.deepEqual(servedAs(mime, false), SAVED, String(mime));
    }
  });

  test('asked inline, anything that is not a picture, sound, film or PDF is still plain bytes to save', () => {
    for (const mime of [
      'text/javascript',
      'application/javascript',
      'text/html',
      'application/xhtml+xml',
      'text/xml',
      'application/xml',
      'text/plain',
      'text/css',
      'application/octet-stream',
      'application/wasm',
      'text/vtt',
      '',
      null,
    ]) {
      assert.deepEqual(servedAs(mime, true), SAVED, String(mime));
    }
  });

  test('SVG and every other +xml type is never inline, however it is spelled: XML documents can carry script', () => {
    for (const mime of [
      'image/svg+xml',
      'IMAGE/SVG+XML',
      ' image/svg+xml ; charset=utf-8',
      'image/foo+xml',
      'video/x+xml',
      'audio/a+xml',
    ]) {
      assert.deepEqual(servedAs(mime, true), SAVED, mime);
    }
  });

  test('a type with stray characters is not trusted', () => {
    for (const mime of ['image/png\r\nX-Evil: 1', 'image/', 'image/png/../html', 'image/png,text/html', 'image/ png']) {
      assert.deepEqual(servedAs(mime, true), SAVED, mime);
    }
  });

  test('images, video, audio and PDF asked inline keep their real type, as one lower-case essence without parameters', () => {
    for (const mime of [
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/heic',
      'video/mp4',
      'video/quicktime',
      'video/x-matroska',
      'audio/mpeg',
      'application/pdf',
    ]) {
      assert.deepEqual(servedAs(mime, true), { type: mime, disposition: 'inline' }, mime);
    }
    assert.deepEqual(servedAs('Video/MP4; codecs="avc1"', true), { type: 'video/mp4', disposition: 'inline' });
  });
});
