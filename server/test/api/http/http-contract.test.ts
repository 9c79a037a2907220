import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { QUERY_TOKEN_ROUTES } from '../../../src/http/bearer.ts';
import { errorCodes, openApiPath } from '../../../src/http/openapi.ts';
import { ROUTES } from '../../../src/http/routes.ts';
import { ERROR_CATALOGUE } from '../../../src/contract/error-codes.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type ApiResponse, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

/** Asserts the error envelope with an exact status and code. */

async function raw(method: string, url: string, init: { headers?: Record<string, string>; body?: string | Buffer } = {}) {
  const response = await fetch(url, { method, headers: init.headers, body: init.body as BodyInit | undefined });
  const text = await response.text();
  let body: any = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') body = JSON.parse(text);
  return { status: response.status, headers: response.headers, body } satisfies ApiResponse;
}

describe('GET /status', () => {
  test('GET /status reports exactly name, server_id, version, setup_required and what setup asks of this caller, whether a restore runs, the two booleans, ready and storage, nothing about users', async () => {
    const res = await t.client.get('/status');
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), [
      'allow_self_registration',
      'name',
      'ready',
      'require_device_approval',
      'restoring',
      'server_id',
      'setup_code_required',
      'setup_in_desktop_app',
      'setup_required',
      'storage',
      'version',
    ]);
    assert.equal(typeof res.body.name, 'string');
    assert.ok(res.body.name.length > 0);
    assert.equal(typeof res.body.server_id, 'string');
    assert.ok(res.body.server_id.length > 0);
    assert.equal(res.body.version, '0.1.0');
    assert.equal(res.body.setup_required, false);
    assert.equal(res.body.setup_code_required, false);
    assert.equal(res.body.setup_in_desktop_app, false);
    assert.equal(res.body.restoring, false);
    assert.equal(res.body.require_device_approval, false);
    assert.equal(res.body.allow_self_registration, false);
    assert.equal(res.body.ready, true);
    assert.equal(res.body.storage, 'ok');
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes(owner.username), 'status must not reveal usernames');
    assert.ok(!text.includes(owner.userId), 'status must not reveal user ids');
  });

  test('GET /status keeps the same server_id across calls', async () => {
    const a = await t.client.get('/status');
    const b = await t.client.get('/status');
    assert.equal(a.body.server_id, b.body.server_id);
  });
});

describe('health', () => {
  test('GET /api/v1/healthz answers ok with version and db and storage checks', async () => {
    const res = await t.client.get('/healthz');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', version: '0.1.0', checks: { db: 'ok', storage: 'ok' } });
  });

  test('GET /healthz at the root answers the same health body', async () => {
    const res = await raw('GET', `${t.url}/healthz`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { status: 'ok', version: '0.1.0', checks: { db: 'ok', storage: 'ok' } });
  });
});

describe('error envelope', () => {
  test('an unknown route answers 404 not_found in the envelope', async () => {
    assertError(await t.client.get('/no/such/route'), 404, 'not_found');
    assertError(await raw('GET', `${t.url}/definitely-not-here`), 404, 'not_found');
    assertError(await t.client.post('/no/such/route', {}), 404, 'not_found');
  });

  test('a wrong method on a known route answers 405 method_not_allowed with an Allow header', async () => {
    const res = await t.client.delete('/status');
    assertError(res, 405, 'method_not_allowed');
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/).sort();
    assert.deepEqual(allow, ['GET', 'HEAD']);

    const put = await t.client.request('PUT', '/me', { token: owner.access });
    assertError(put, 405, 'method_not_allowed');
    assert.match(put.headers.get('allow') ?? '', /\bGET\b/);

    const rootWrong = await raw('POST', `${t.url}/healthz`);
    assertError(rootWrong, 405, 'method_not_allowed');
    assert.match(rootWrong.headers.get('allow') ?? '', /\bGET\b/);

    const login = await t.client.get('/auth/login');
    assertError(login, 405, 'method_not_allowed');
    assert.equal(login.headers.get('allow'), 'POST');
  });

  test('malformed JSON answers 400 invalid_json', async () => {
    const res = await t.client.post('/auth/login', undefined, {
      rawBody: '{"username": "owner", ',
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 400, 'invalid_json');
  });

  test('a JSON scalar body and a prototype-poisoning body answer 400 invalid_json', async () => {
    const headers = { 'content-type': 'application/json' };
    assertError(await t.client.post('/auth/login', undefined, { rawBody: '"owner"', headers }), 400, 'invalid_json');
    assertError(await t.client.post('/auth/login', undefined, { rawBody: '42', headers }), 400, 'invalid_json');
    assertError(
      await t.client.post('/auth/login', undefined, {
        rawBody: '{"__proto__":{"admin":true},"username":"owner","password":"owner-password-1"}',
        headers,
      }),
      400,
      'invalid_json',
    );
  });

  test('an empty body on a JSON route answers 400 missing_field', async () => {
    const res = await t.client.post('/auth/login', undefined, { rawBody: '', headers: { 'content-type': 'application/json' } });
    assertError(res, 400, 'missing_field', 'username');
  });

  test('a JSON body over 1 MiB answers 413 payload_too_large', async () => {
    const big = JSON.stringify({ username: 'owner', password: 'x'.repeat(1024 * 1024 + 10) });
    const res = await t.client.post('/auth/login', undefined, {
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    });
    assertError(res, 413, 'payload_too_large');
  });

  test('a body just under 1 MiB is not refused as too large', async () => {
    const body = JSON.stringify({ display_name: 'ok', padding: 'x'.repeat(1000 * 1000) });
    const res = await t.client.patch('/me/profile', undefined, {
      token: owner.access,
      rawBody: body,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });

  test('a text/plain body on a JSON route answers 415 unsupported_media_type', async () => {
    const res = await t.client.post('/auth/login', undefined, {
      rawBody: JSON.stringify({ username: 'owner', password: 'owner-password-1' }),
      headers: { 'content-type': 'text/plain' },
    });
    assertError(res, 415, 'unsupported_media_type');
  });

  test('a JSON array body answers 400 invalid_input', async () => {
    const res = await t.client.post('/auth/login', ['owner', 'owner-password-1']);
    assertError(res, 400, 'invalid_input');
  });

  test('a field of the wrong type answers 400 invalid_input naming the field', async () => {
    const res = await t.client.post('/auth/login', { username: 42, password: 'owner-password-1' });
    assertError(res, 400, 'invalid_input', 'username');
    const patch = await t.client.patch('/server/settings', { require_device_approval: 'yes' }, { token: owner.access });
    assertError(patch, 400, 'invalid_input', 'require_device_approval');
  });

  test('a missing required field answers 400 missing_field naming the field', async () => {
    const res = await t.client.post('/auth/login', { username: 'owner' });
    assertError(res, 400, 'missing_field', 'password');
    const refresh = await t.client.post('/auth/refresh', {});
    assertError(refresh, 400, 'missing_field', 'refresh_token');
  });

  test('a route without a token answers 401 in the envelope', async () => {
    assertError(await t.client.get('/me'), 401, 'unauthorized');
    assertError(await t.client.get('/me', { token: 'not-a-real-token' }), 401, 'invalid_token');
  });
});

describe('security headers', () => {
  const expectHeaders = (res: ApiResponse) => {
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(res.headers.get('x-frame-options'), 'DENY');
  };

  test('security headers are on a 200 response', async () => {
    const res = await t.client.get('/status');
    assert.equal(res.status, 200);
    expectHeaders(res);
    const root = await raw('GET', `${t.url}/healthz`);
    assert.equal(root.status, 200);
    expectHeaders(root);
  });

  test('security headers are on a 404 response', async () => {
    const res = await t.client.get('/nothing-here');
    assert.equal(res.status, 404);
    expectHeaders(res);
  });

  test('security headers are on a 401 response', async () => {
    const res = await t.client.get('/me');
    assert.equal(res.status, 401);
    expectHeaders(res);
  });

  test('security headers are on 400, 405 and 413 responses', async () => {
    const bad = await t.client.post('/auth/login', undefined, { rawBody: '{', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    expectHeaders(bad);
    const wrong = await t.client.delete('/status');
    assert.equal(wrong.status, 405);
    expectHeaders(wrong);
  });
});

describe('?access_token', () => {
  test('?access_token is not accepted on GET /me while the bearer header is', async () => {
    const query = await t.client.get(`/me?access_token=${encodeURIComponent(owner.access)}`);
    assertError(query, 401, 'unauthorized');
    const header = await t.client.get('/me', { token: owner.access });
    assert.equal(header.status, 200);
    assert.equal(header.body.id, owner.userId);
  });

  test('?access_token is not accepted on GET /sessions or an admin route either', async () => {
    assertError(await t.client.get(`/sessions?access_token=${encodeURIComponent(owner.access)}`), 401, 'unauthorized');
    assertError(await t.client.get(`/admin/users?access_token=${encodeURIComponent(owner.access)}`), 401, 'unauthorized');
  });

  test("QUERY_TOKEN_ROUTES is exactly the four routes the spec names, and a video's playback copy (issue 23: a <video> src like the download's)", () => {
    assert.deepEqual(
      [...QUERY_TOKEN_ROUTES].sort(),
      ['GET /nodes/:id/download', 'GET /nodes/:id/preview', 'GET /nodes/:id/thumbnail', 'GET /ws'].sort(),
    );
  });

  test('every QUERY_TOKEN_ROUTES entry exists in ROUTES or is a later-issue node route', () => {
    const later = new Set(['GET /nodes/:id/download', 'GET /nodes/:id/preview', 'GET /nodes/:id/thumbnail']);
    const known = new Set(ROUTES.map((r) => `${r.method} ${r.path}`));
    assert.ok(known.has('GET /ws'), 'GET /ws is built by this issue');
    for (const entry of QUERY_TOKEN_ROUTES) {
      assert.ok(known.has(entry) || later.has(entry), `${entry} is neither a route nor a later-issue route`);
    }
  });
});

describe('OpenAPI', () => {
  let doc: any;
  before(async () => {
    const res = await t.client.get('/openapi.json');
    assert.equal(res.status, 200);
    doc = res.body;
  });

  test('GET /api/v1/openapi.json is an OpenAPI 3.1.x document', () => {
    assert.match(doc.openapi, /^3\.1\.\d+$/);
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(doc.info.version, '0.1.0');
    assert.equal(typeof doc.paths, 'object');
  });

  test('OpenAPI contains every route of ROUTES with its method, and nothing extra', () => {
    const expected = ROUTES.map((r) => `${r.method.toLowerCase()} ${openApiPath(r.path)}`).sort();
    const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    const documented: string[] = [];
    for (const [path, item] of Object.entries<Record<string, unknown>>(doc.paths)) {
      assert.ok(path.startsWith('/'), path);
      assert.ok(!path.includes(':'), `${path} uses {param} syntax`);
      for (const key of Object.keys(item)) if (methods.has(key)) documented.push(`${key} ${path}`);
    }
    documented.sort();
    assert.deepEqual(documented, expected);
    // Spot checks independent of the conversion helper.
    assert.ok(doc.paths['/devices/{id}/approve']?.post);
    assert.ok(doc.paths['/auth/session/{id}/status']?.get);
    assert.ok(doc.paths['/invites/{code}/check']?.get);
    assert.ok(doc.paths['/admin/users/{id}']?.patch);
  });

  test('OpenAPI path parameters are declared for every {param} in a path', () => {
    for (const [path, item] of Object.entries<any>(doc.paths)) {
      const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      for (const op of Object.values<any>(item)) {
        const declared = (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p.name);
        assert.deepEqual(declared.sort(), [...names].sort(), path);
      }
    }
  });

  test('each OpenAPI operation documents its error responses with the envelope and catalogue codes', () => {
    for (const def of ROUTES) {
      const op = doc.paths[openApiPath(def.path)][def.method.toLowerCase()];
      const where = `${def.method} ${def.path}`;
      const errorStatuses = Object.keys(op.responses).filter((s) => Number(s) >= 400);
      assert.ok(errorStatuses.length > 0, `${where} documents no error response`);
      assert.ok(op.responses['500'], `${where} documents no 500`);
      const documentedCodes = new Set<string>();
      for (const status of errorStatuses) {
        const schema = op.responses[status].content?.['application/json']?.schema;
        if (status === '503' && def.path === '/healthz') continue;
        assert.ok(schema, `${where} ${status} has no schema`);
        assert.deepEqual(schema.required, ['error'], `${where} ${status}`);
        const codes: string[] = schema.properties.error.properties.code.enum;
        for (const code of codes) {
          assert.ok(code in ERROR_CATALOGUE, `${where}: ${code} is not a catalogue code`);
          assert.equal(String(ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status), status, `${where}: ${code}`);
          documentedCodes.add(code);
        }
      }
      for (const code of def.errors ?? []) assert.ok(documentedCodes.has(code), `${where} does not document ${code}`);
      for (const code of errorCodes(def)) assert.ok(documentedCodes.has(code), `${where} does not document ${code}`);
      if (def.auth !== 'none') {
        assert.ok(documentedCodes.has('unauthorized'), `${where} must document 401`);
        assert.ok(op.security.length > 0, `${where} must declare security`);
      } else {
        assert.deepEqual(op.security, [], `${where} is unauthenticated`);
      }
      if (def.auth === 'admin') assert.ok(documentedCodes.has('forbidden'), `${where} must document 403 forbidden`);
      if (def.auth === 'user' || def.auth === 'admin') {
        assert.ok(documentedCodes.has('pending_approval'), `${where} must document pending_approval`);
      }
      if (def.body) {
        for (const code of ['invalid_json', 'missing_field', 'invalid_input', 'payload_too_large', 'unsupported_media_type']) {
          assert.ok(documentedCodes.has(code), `${where} must document ${code}`);
        }
        assert.ok(op.requestBody?.content?.['application/json']?.schema, `${where} documents its body`);
      }
    }
  });

  test('OpenAPI documents the specific errors of the routes the spec names', () => {
    const codesOf = (path: string, method: string) => {
      const op = doc.paths[path][method];
      const out: string[] = [];
      for (const [status, r] of Object.entries<any>(op.responses)) {
        if (Number(status) >= 400) out.push(...(r.content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum ?? []));
      }
      return out;
    };
    assert.ok(codesOf('/auth/login', 'post').includes('totp_required'));
    assert.ok(codesOf('/auth/login', 'post').includes('invalid_credentials'));
    assert.ok(codesOf('/auth/login', 'post').includes('rate_limited'));
    assert.ok(codesOf('/auth/refresh', 'post').includes('refresh_token_reused'));
    assert.ok(codesOf('/auth/session/{id}/status', 'get').includes('slow_down'));
    assert.ok(codesOf('/auth/session/{id}/status', 'get').includes('device_denied'));
    assert.ok(codesOf('/setup', 'post').includes('already_set_up'));
    assert.ok(codesOf('/auth/register', 'post').includes('invite_required'));
    assert.ok(codesOf('/me/profile', 'patch').includes('must_change_password'));
    assert.ok(codesOf('/admin/users/{id}', 'patch').includes('last_admin'));
    assert.ok(doc.paths['/auth/login'].post.responses['202'], 'login documents the 202 pending response');
    assert.ok(
      doc.paths['/ws'].get.security.some((s: any) => 'queryToken' in s),
      '/ws accepts ?access_token',
    );
    assert.ok(!doc.paths['/me'].get.security.some((s: any) => 'queryToken' in s), '/me does not accept ?access_token');
  });
});
