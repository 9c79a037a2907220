import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import WebSocket from 'ws';
import { ApiClient, makeTempDir } from '../../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../../helpers/spawn.ts';

interface LogLine {
  level: string;
  msg: string;
  method?: string;
  route?: string;
  status?: number;
  [key: string]: unknown;
}

/**
 * One debug-level server process goes through every path that handles a secret; the test
 * then reads everything the process wrote.
 */
describe('logging at debug level', () => {
  let dataDir: string;
  let server: SpawnedServer;
  let output = '';
  let replayedSessionId = '';
  const secrets = new Map<string, string>();
  const keep = (what: string, value: unknown) => {
    assert.equal(typeof value, 'string', what);
    assert.ok((value as string).length >= 10, `${what} is too short to be a meaningful needle`);
    secrets.set(what, value as string);
  };

  before(async () => {
    dataDir = await makeTempDir('hearth-log-');
    server = await spawnServer(dataDir, { LOG_LEVEL: 'debug' });
    const client = new ApiClient(server.api);
    const ownerPassword = 'owner-Secret-Pass-8c1f';
    const memberPassword = 'member-Secret-Pass-77e2';
    const wrongPassword = 'wrong-Secret-Pass-41aa';
    keep('owner password', ownerPassword);
    keep('member password', memberPassword);
    keep('wrong password', wrongPassword);

    const setup = await client.post('/setup', { username: 'owner', password: ownerPassword });
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    keep('setup access token', setup.body.access_token);
    keep('setup refresh token', setup.body.refresh_token);
    const admin = setup.body.access_token as string;

    const invite = await client.post('/admin/invites', { role: 'member' }, { token: admin });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    keep('invite code', invite.body.code);
    const check = await client.get(`/invites/${encodeURIComponent(invite.body.code)}/check`);
    assert.equal(check.status, 200);
    assert.equal(check.body.valid, true);
    const reg = await client.post('/auth/register', { username: 'member', password: memberPassword, invite_code: invite.body.code });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));

    const login = await client.post('/auth/login', { username: 'member', password: memberPassword });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    keep('login access token', login.body.access_token);
    keep('login refresh token', login.body.refresh_token);
    replayedSessionId = login.body.session_id;

    const refreshed = await client.post('/auth/refresh', { refresh_token: login.body.refresh_token });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    keep('refreshed access token', refreshed.body.access_token);
    keep('refreshed refresh token', refreshed.body.refresh_token);
    const access = refreshed.body.access_token as string;

    // The WebSocket with the token in the query, accepted and refused.
    const wsBase = server.url.replace(/^http/, 'ws') + '/api/v1/ws';
    const ws = new WebSocket(`${wsBase}?access_token=${encodeURIComponent(access)}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.close();
    const badQueryToken = 'forged-query-token-' + 'Q'.repeat(24);
    keep('refused query token', badQueryToken);
    const refused = new WebSocket(`${wsBase}?access_token=${badQueryToken}`);
    const status = await new Promise<number>((resolve, reject) => {
      refused.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
      });
      refused.once('open', () => reject(new Error('a forged token opened the channel')));
      refused.on('error', () => {});
    });
    refused.terminate();
    assert.equal(status, 401);
    // The same token in the query of plain HTTP requests: on /ws and on a header-only route.
    assert.equal((await client.get(`/ws?access_token=${encodeURIComponent(access)}`)).status, 426);
    assert.equal((await client.get(`/me?access_token=${encodeURIComponent(access)}`)).status, 401);

    const wrong = await client.post('/auth/login', { username: 'member', password: wrongPassword });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'invalid_credentials');

    // A replayed refresh token (logged as a warning) and a malformed body holding a password.
    const replay = await client.post('/auth/refresh', { refresh_token: login.body.refresh_token });
    assert.equal(replay.status, 401);
    const brokenPassword = 'broken-Json-Pass-93bd';
    keep('password in malformed JSON', brokenPassword);
    const broken = await client.post('/auth/login', undefined, {
      rawBody: `{"username":"member","password":"${brokenPassword}"`,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(broken.status, 400);
    // A secret-looking path that matches no route.
    const strayPath = 'stray-path-secret-5d7e9a1b';
    keep('unmatched path segment', strayPath);
    assert.equal((await client.get(`/nope/${strayPath}`)).status, 404);

    // Two-factor enrollment hands out a TOTP secret and recovery codes.
    const begin = await client.post('/auth/2fa/begin', undefined, { token: admin });
    assert.equal(begin.status, 200);
    keep('totp secret', begin.body.secret);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.secret) });
    const verify = await client.post('/auth/2fa/verify', { code: totp.generate() }, { token: admin });
    assert.equal(verify.status, 200, JSON.stringify(verify.body));
    (verify.body.recovery_codes as string[]).forEach((code, i) => keep(`recovery code ${i}`, code));
    const withCode = await client.post('/auth/login', {
      username: 'owner',
      password: ownerPassword,
      totp_code: verify.body.recovery_codes[0],
    });
    assert.equal(withCode.status, 200, JSON.stringify(withCode.body));
    keep('2fa login access token', withCode.body.access_token);

    await server.stop();
    output = server.output();
  });

  after(async () => {
    const running = server as SpawnedServer | undefined;
    if (running && running.process.exitCode === null && running.process.signalCode === null) await running.kill9();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const lines = (): LogLine[] =>
    output
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);

  test('no token, password, invite code, TOTP secret or recovery code appears in the process output', () => {
    assert.ok(output.length > 0);
    for (const [what, secret] of secrets) {
      assert.ok(!output.includes(secret), `${what} leaked into the log`);
      // Nor the part of an access token that makes it a secret: its signature (the session
      // id in front of it is an identifier and may be logged).
      if (what.includes('access token')) {
        const signature = secret.split('.').at(-1)!;
        assert.ok(signature.length >= 16 && !output.includes(signature), `the ${what}'s signature leaked into the log`);
      }
      assert.ok(!output.includes(encodeURIComponent(secret)), `${what} leaked URL-encoded`);
    }
    assert.doesNotMatch(output, /access_token=/, 'a raw URL with a query token was logged');
  });

  test('every entry is one JSON line with a level and a message', () => {
    const all = output.split('\n').filter((l) => l.trim() !== '');
    const jsonLines = lines();
    // The only plain lines are on stdout: the ready line, and on a fresh install the one line
    // that gives the owner the setup code.
    assert.deepEqual(
      all.filter((l) => !l.startsWith('{')),
      all.filter(
        (l) => /^listening on http:\/\/127\.0\.0\.1:\d+$/.test(l) || /^Finish setup at http:\/\/\S+ with setup code \d{4}-\d{4}/.test(l),
      ),
    );
    for (const line of jsonLines) {
      assert.ok(['debug', 'info', 'warn', 'error'].includes(line.level), JSON.stringify(line));
      assert.equal(typeof line.msg, 'string');
    }
    assert.ok(!jsonLines.some((l) => l.level === 'error'), 'nothing in this run is a server error');
  });

  test('request lines are logged at debug level with the route template, method and the status sent', () => {
    const requests = lines().filter((l) => l.msg === 'request');
    assert.ok(requests.length >= 10, `only ${requests.length} request lines`);
    const find = (method: string, route: string, status: number) =>
      requests.find((l) => l.method === method && l.route === route && l.status === status);
    assert.ok(find('POST', '/api/v1/setup', 200), JSON.stringify(requests));
    assert.ok(find('POST', '/api/v1/auth/login', 200), 'successful sign-in');
    assert.ok(find('POST', '/api/v1/auth/login', 401), 'failed sign-in with its real status');
    assert.ok(find('POST', '/api/v1/auth/login', 400), 'malformed body with its real status');
    assert.ok(find('POST', '/api/v1/auth/refresh', 200));
    assert.ok(find('POST', '/api/v1/auth/refresh', 401), 'replayed refresh token with its real status');
    assert.ok(find('GET', '/api/v1/invites/:code/check', 200), 'the invite check is logged by its template');
    assert.ok(find('GET', '/api/v1/ws', 426));
    assert.ok(find('GET', '/api/v1/me', 401));
    for (const line of requests) {
      assert.equal(line.level, 'debug');
      assert.equal(typeof line.ms, 'number');
      assert.ok(line.route === '(unmatched)' || line.route!.startsWith('/'), String(line.route));
    }
  });

  test('the refresh-token replay is reported as a warning naming the session, not the token', () => {
    const warning = lines().find((l) => l.level === 'warn' && /reuse/.test(l.msg));
    assert.ok(warning, 'no warning about the replay');
    assert.equal(warning.session_id, replayedSessionId);
  });
});
