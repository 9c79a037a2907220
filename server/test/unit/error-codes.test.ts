import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ERROR_CATALOGUE, type ErrorCode } from '../../src/contract/error-codes.ts';
import { AppError, statusOf } from '../../src/app-error.ts';
import { toAppError } from '../../src/http/middleware/error-envelope.ts';
import { ROUTES } from '../../src/http/routes.ts';

const codes = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

describe('the error catalogue', () => {
  test('every catalogue status is a 4xx or 5xx HTTP status', () => {
    assert.ok(codes.length > 0);
    for (const code of codes) {
      const { status } = ERROR_CATALOGUE[code];
      assert.ok(Number.isInteger(status) && status >= 400 && status <= 599, `${code}: ${status}`);
    }
  });

  test('every catalogue code is snake_case', () => {
    for (const code of codes) assert.match(code, /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/, code);
  });

  test('every catalogue message is a plain sentence for a person', () => {
    for (const code of codes) {
      const { message } = ERROR_CATALOGUE[code];
      assert.ok(message.length > 0, code);
      assert.match(message, /^[A-Z]/, `${code} starts with a capital`);
      assert.match(message, /[.!?]$/, `${code} ends as a sentence`);
      assert.ok(!message.includes(code), `${code} message is not just the code`);
    }
  });

  test('AppError maps each code to the catalogue status, message and envelope', () => {
    for (const code of codes) {
      const error = new AppError(code);
      assert.equal(error.code, code);
      assert.equal(error.status, ERROR_CATALOGUE[code].status);
      assert.equal(statusOf(code), ERROR_CATALOGUE[code].status);
      assert.equal(error.message, ERROR_CATALOGUE[code].message);
      assert.deepEqual(error.toBody(), { error: { code, message: ERROR_CATALOGUE[code].message } });
      assert.ok(error instanceof Error);
    }
  });

  test('AppError carries a field and headers into the envelope when given', () => {
    const error = new AppError('missing_field', 'The field "password" is required.', {
      field: 'password',
      headers: { 'Retry-After': '3' },
    });
    assert.equal(error.status, 400);
    assert.deepEqual(error.toBody(), {
      error: { code: 'missing_field', message: 'The field "password" is required.', field: 'password' },
    });
    assert.deepEqual(error.headers, { 'Retry-After': '3' });
    assert.deepEqual(new AppError('forbidden').headers, {});
    assert.ok(!('field' in new AppError('forbidden').toBody().error));
  });

  test('every error code a route declares is in the catalogue', () => {
    for (const def of ROUTES) {
      for (const code of def.errors ?? []) assert.ok(code in ERROR_CATALOGUE, `${def.method} ${def.path}: ${code}`);
    }
  });
});

describe('the codes of api-decisions.md and service-spec.md', () => {
  /** Code → status as the API contract gives them (docs/api.md, the OpenAPI document). */
  const SPEC: Record<string, number> = {
    invalid_json: 400,
    method_not_allowed: 405,
    not_found: 404,
    internal: 500,
    already_set_up: 409,
    invite_required: 403,
    invalid_invite: 400,
    username_taken: 409,
    weak_password: 400,
    invalid_credentials: 401,
    totp_required: 401,
    rate_limited: 429,
    invalid_refresh_token: 401,
    refresh_token_reused: 401,
    device_denied: 403,
    pending_approval: 403,
    slow_down: 429,
    must_change_password: 403,
    forbidden: 403,
    // Added with wave 2.
    misdirected_request: 421,
    busy: 503,
    invalid_name: 400,
  };

  for (const [code, status] of Object.entries(SPEC)) {
    test(`${code} exists in the catalogue with status ${status}`, () => {
      assert.ok(code in ERROR_CATALOGUE, `${code} is missing`);
      assert.equal(ERROR_CATALOGUE[code as ErrorCode].status, status);
    });
  }

  test('the 401 for a missing or expired token and the 413/415 body errors have catalogue codes', () => {
    assert.equal(ERROR_CATALOGUE.unauthorized.status, 401);
    assert.equal(ERROR_CATALOGUE.invalid_token.status, 401);
    assert.equal(ERROR_CATALOGUE.payload_too_large.status, 413);
    assert.equal(ERROR_CATALOGUE.unsupported_media_type.status, 415);
    assert.equal(ERROR_CATALOGUE.invalid_input.status, 400);
    assert.equal(ERROR_CATALOGUE.missing_field.status, 400);
    assert.equal(ERROR_CATALOGUE.invalid_cursor.status, 400);
  });
});

describe('toAppError', () => {
  /** Shaped like the errors http-errors, raw-body and co-body raise. */
  function httpError(status: number, extra: Record<string, unknown> = {}): Error {
    return Object.assign(new Error('from below'), { status, statusCode: status, expose: status < 500, ...extra });
  }

  test('an AppError passes through unchanged', () => {
    const original = new AppError('slow_down', undefined, { headers: { 'Retry-After': '4' } });
    assert.equal(toAppError(original), original);
  });

  test('a body-parser JSON parse failure maps to 400 invalid_json', () => {
    assert.equal(toAppError(httpError(400, { type: 'entity.parse.failed' })).code, 'invalid_json');
    // co-body rethrows JSON.parse's SyntaxError with status 400 and no type.
    const syntax = Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400, body: '{' });
    const mapped = toAppError(syntax);
    assert.equal(mapped.code, 'invalid_json');
    assert.equal(mapped.status, 400);
  });

  test('a body over the limit maps to 413 payload_too_large', () => {
    assert.equal(toAppError(httpError(413, { type: 'entity.too.large' })).code, 'payload_too_large');
    assert.equal(toAppError(httpError(413)).code, 'payload_too_large');
  });

  test('an unsupported body type or encoding maps to 415 unsupported_media_type', () => {
    assert.equal(toAppError(httpError(415)).code, 'unsupported_media_type');
    assert.equal(toAppError(httpError(415, { type: 'encoding.unsupported' })).code, 'unsupported_media_type');
    assert.equal(toAppError(httpError(415, { type: 'charset.unsupported' })).code, 'unsupported_media_type');
  });

  test('a router 405 maps to method_not_allowed and keeps an Allow header', () => {
    const plain = toAppError(httpError(405));
    assert.equal(plain.code, 'method_not_allowed');
    assert.equal(plain.status, 405);
    const withAllow = toAppError(httpError(405, { headers: { Allow: 'GET, HEAD' } }));
    assert.equal(withAllow.code, 'method_not_allowed');
    assert.deepEqual(withAllow.headers, { Allow: 'GET, HEAD' });
  });

  test('a router 501 (unknown method) maps to method_not_allowed', () => {
    assert.equal(toAppError(httpError(501)).code, 'method_not_allowed');
  });

  test('a koa 404 maps to not_found', () => {
    assert.equal(toAppError(httpError(404)).code, 'not_found');
  });

  test('an exposed koa 400 maps to invalid_input', () => {
    assert.equal(toAppError(httpError(400)).code, 'invalid_input');
  });

  test('anything else maps to 500 internal without leaking its message', () => {
    for (const caught of [
      new Error('SQLITE_CORRUPT: /secret/path/db.sqlite'),
      new TypeError('cannot read properties of undefined'),
      httpError(500),
      httpError(400, { expose: false }),
      'a thrown string',
      null,
      undefined,
      42,
    ]) {
      const mapped = toAppError(caught);
      assert.equal(mapped.code, 'internal', String(caught));
      assert.equal(mapped.status, 500);
      assert.equal(mapped.message, ERROR_CATALOGUE.internal.message);
    }
  });
});
