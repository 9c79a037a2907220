import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../../../../server/src/contract/error-codes.ts';
import { humanMessage } from '../../api/error-messages.ts';
import { handlingOf, messageOf, outcomeOf, quotaMayHaveChanged, readAnswer, retriesNow, type FailedAnswer } from './decisions.ts';

/** The answer the server gives with this code: the catalogue's status and its envelope. */
function served(code: ErrorCode, extra: { message?: string; field?: string } = {}): FailedAnswer {
  const body = JSON.stringify({
    error: { code, message: extra.message ?? ERROR_CATALOGUE[code].message, ...(extra.field ? { field: extra.field } : {}) },
  });
  return readAnswer(ERROR_CATALOGUE[code].status, body);
}

describe('what the upload queue does with a failed request', () => {
  it('an expired access token is refreshed, and the request sent again with the new one', () => {
    for (const code of ['invalid_token', 'unauthorized'] as const) {
      expect(handlingOf(served(code)), code).toBe('refresh');
      expect(retriesNow(handlingOf(served(code))), code).toBe(true);
    }
  });

  it('offsets out of step, data damaged on the way and a server fault are sent again at once', () => {
    for (const code of ['offset_mismatch', 'checksum_mismatch', 'internal'] as const) {
      expect(handlingOf(served(code)), code).toBe('retry');
      expect(retriesNow(handlingOf(served(code))), code).toBe(true);
    }
  });

  it('a full or read-only disk holds the upload (no retry now): it goes on once there is room', () => {
    for (const code of ['storage_full', 'storage_read_only'] as const) {
      expect(handlingOf(served(code)), code).toBe('hold');
      expect(retriesNow('hold')).toBe(false);
      expect(outcomeOf(served(code)), code).toEqual({ kind: 'hold' });
    }
  });

  it("a file bigger than all the room left is refused for good, with the server's sentence saying how much room there is", () => {
    const answer = served('storage_full', { field: 'Upload-Length', message: 'This file needs 4.0 GB, and 1.2 GB is free.' });
    expect(handlingOf(answer)).toBe('refused');
    expect(outcomeOf(answer)).toEqual({ kind: 'failed', message: 'This file needs 4.0 GB, and 1.2 GB is free.', forGood: true });
  });

  it("a refusal of the file itself (quota, name, size, folder gone, no permission, upload expired) is for good, in the app's words", () => {
    const codes: ErrorCode[] = [
      'quota_exceeded',
      'name_too_long',
      'invalid_name',
      'payload_too_large',
      'not_found',
      'forbidden',
      'upload_expired',
      'invalid_input',
      'tus_version_unsupported',
    ];
    for (const code of codes) {
      expect(handlingOf(served(code)), code).toBe('refused');
      expect(outcomeOf(served(code)), code).toEqual({ kind: 'failed', message: humanMessage(code), forGood: true });
    }
  });

  it('a drive away, a busy server, too many tries, a slow request or a replaced file now in the trash stop the upload, and Resume tries again', () => {
    const codes: ErrorCode[] = ['library_offline', 'unavailable', 'busy', 'rate_limited', 'slow_down', 'request_timeout', 'in_trash'];
    for (const code of codes) {
      expect(handlingOf(served(code)), code).toBe('later');
      expect(retriesNow('later')).toBe(false);
      expect(outcomeOf(served(code)), code).toEqual({ kind: 'failed', message: humanMessage(code), forGood: false });
    }
  });

  it('the code decides, not the status: answers that share a status are handled apart', () => {
    // 409: out of step is retried; a replaced file in the trash is not.
    expect([handlingOf(served('offset_mismatch')), handlingOf(served('in_trash'))]).toEqual(['retry', 'later']);
    // 503: a read-only disk holds; a drive away stops.
    expect([handlingOf(served('storage_read_only')), handlingOf(served('library_offline'))]).toEqual(['hold', 'later']);
    // 507: the disk full holds; the account's quota is refused.
    expect([handlingOf(served('storage_full')), handlingOf(served('quota_exceeded'))]).toEqual(['hold', 'refused']);
    // The same code at another status is still that code.
    expect(handlingOf(readAnswer(500, JSON.stringify({ error: { code: 'storage_read_only', message: '' } })))).toBe('hold');
  });

  it("without an envelope (no answer, a proxy's page, a HEAD) the status decides", () => {
    const bare = (status: number, body = '') => handlingOf(readAnswer(status, body));
    const proxyPage = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    expect(bare(0)).toBe('retry');
    expect(bare(502, proxyPage)).toBe('retry');
    expect(bare(504, proxyPage)).toBe('retry');
    expect(bare(500)).toBe('retry');
    // HEAD answers of tus: out of step, locked, checksum.
    expect([bare(409), bare(423), bare(460)]).toEqual(['retry', 'retry', 'retry']);
    expect(bare(401)).toBe('refresh');
    expect([bare(408), bare(429), bare(503)]).toEqual(['later', 'later', 'later']);
    expect([bare(404, proxyPage), bare(413, proxyPage), bare(400), bare(507)]).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect(outcomeOf(readAnswer(0, undefined))).toEqual({
      kind: 'failed',
      message: "Can't reach the server. It will continue when the connection is back.",
      forGood: false,
    });
    expect(outcomeOf(readAnswer(413, proxyPage))).toEqual({ kind: 'failed', message: 'The upload failed. Try again.', forGood: true });
  });

  it('an envelope with a code this app does not know (a newer server) is read as no envelope', () => {
    const newer = (status: number) =>
      readAnswer(status, JSON.stringify({ error: { code: 'code_of_tomorrow', message: 'Something new.' } }));
    expect(newer(500).error).toBeNull();
    expect(handlingOf(newer(500))).toBe('retry');
    expect(handlingOf(newer(400))).toBe('refused');
    expect(messageOf(newer(400))).toBe('The upload failed. Try again.');
    // JSON that is not an envelope is no envelope either.
    expect(readAnswer(500, 'null').error).toBeNull();
    expect(readAnswer(500, JSON.stringify({ error: { code: 42 } })).error).toBeNull();
  });

  it('every code of the catalogue ends in a sentence a person can read', () => {
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      const outcome = outcomeOf(served(code));
      if (outcome.kind === 'failed') expect(outcome.message.length, code).toBeGreaterThan(10);
    }
  });

  it('the usage shown is read again when the quota or the disk ran out, and only then', () => {
    expect(quotaMayHaveChanged(served('quota_exceeded'))).toBe(true);
    expect(quotaMayHaveChanged(served('storage_full'))).toBe(true);
    expect(quotaMayHaveChanged(readAnswer(507, ''))).toBe(true);
    expect(quotaMayHaveChanged(served('storage_read_only'))).toBe(false);
    expect(quotaMayHaveChanged(served('name_too_long'))).toBe(false);
    expect(quotaMayHaveChanged(readAnswer(0, ''))).toBe(false);
    // By the code, whatever the status beside it.
    expect(quotaMayHaveChanged(readAnswer(500, JSON.stringify({ error: { code: 'quota_exceeded', message: '' } })))).toBe(true);
    expect(quotaMayHaveChanged(readAnswer(507, JSON.stringify({ error: { code: 'internal', message: '' } })))).toBe(false);
  });
});
