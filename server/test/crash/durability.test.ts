import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';
import * as OTPAuth from 'otpauth';
import WebSocket from 'ws';
import { OWNER } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';

/**
 * Every acknowledged write must survive a crash: each test makes one write, kills the
 * process with SIGKILL the moment the 2xx arrives (no shutdown code runs), restarts on the
 * same data dir and looks for the write.
 */
describe('durability across kill -9', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  let recoveryCodes: string[] = [];
  let nextRecoveryCode = 0;

  async function start(): Promise<void> {
    server = await spawnServer(dataDir);
    client = new ApiClient(server.api);
  }
  async function crashAndRestart(): Promise<void> {
    await server!.kill9();
    assert.equal(server!.process.signalCode, 'SIGKILL');
    await start();
  }
  /** Signs the owner in, spending one recovery code as the second factor. */
  async function ownerLogin(): Promise<any> {
    const res = await client.post('/auth/login', { ...OWNER, totp_code: recoveryCodes[nextRecoveryCode++] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  }

  before(async () => {
    dataDir = await makeTempDir('hearth-crash-');
    await start();
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const token = setup.body.access_token;
    const begin = await client.post('/auth/2fa/begin', undefined, { token });
    assert.equal(begin.status, 200, JSON.stringify(begin.body));
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(begin.body.secret), algorithm: 'SHA1', digits: 6, period: 30 });
    const verify = await client.post('/auth/2fa/verify', { code: totp.generate() }, { token });
    assert.equal(verify.status, 200, JSON.stringify(verify.body));
    recoveryCodes = verify.body.recovery_codes;
    assert.equal(recoveryCodes.length, 10);
    assert.equal(new Set(recoveryCodes).size, 10);
  });

  after(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('a refresh rotation and a recovery-code sign-in acknowledged before kill -9 stay done: the new refresh token works, the old one is a replay, the code is spent', async () => {
    const noCode = await client.post('/auth/login', OWNER);
    assert.equal(noCode.status, 401);
    assert.equal(noCode.body.error.code, 'totp_required');

    const usedCode = recoveryCodes[nextRecoveryCode]!;
    const session = await ownerLogin();
    const rotated = await client.post('/auth/refresh', { refresh_token: session.refresh_token });
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    await crashAndRestart();

    // The new token first: presenting the old one revokes the whole session.
    const fresh = await client.post('/auth/refresh', { refresh_token: rotated.body.refresh_token });
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    assert.equal(fresh.body.session_id, session.session_id);
    const replay = await client.post('/auth/refresh', { refresh_token: session.refresh_token });
    assert.equal(replay.status, 401, JSON.stringify(replay.body));
    assert.equal(replay.body.error.code, 'refresh_token_reused');
    // The replay ended the session: the pair handed out after the restart is dead as well.
    const afterReplay = await client.post('/auth/refresh', { refresh_token: fresh.body.refresh_token });
    assert.equal(afterReplay.status, 401);
    assert.equal((await client.get('/me', { token: fresh.body.access_token })).status, 401);

    const again = await client.post('/auth/login', { ...OWNER, totp_code: usedCode });
    assert.equal(again.status, 401, JSON.stringify(again.body));
    assert.equal(again.body.error.code, 'totp_required');
  });

  test('a recovery code consumed by a sign-in acknowledged right before kill -9 stays consumed after restart', async () => {
    const usedCode = recoveryCodes[nextRecoveryCode]!;
    const session = await ownerLogin();
    await crashAndRestart();
    const reuse = await client.post('/auth/login', { ...OWNER, totp_code: usedCode });
    assert.equal(reuse.status, 401, JSON.stringify(reuse.body));
    assert.equal(reuse.body.error.code, 'totp_required');
    // The session that sign-in opened survived too, and an unused code still works.
    assert.equal((await client.get('/me', { token: session.access_token })).status, 200);
    await ownerLogin();
  });

  test('a logout acknowledged right before kill -9 stays logged out after restart', async () => {
    const session = await ownerLogin();
    const logout = await client.post('/auth/logout', undefined, { token: session.access_token });
    assert.equal(logout.status, 204);
    await crashAndRestart();
    const me = await client.get('/me', { token: session.access_token });
    assert.equal(me.status, 401, JSON.stringify(me.body));
    const refresh = await client.post('/auth/refresh', { refresh_token: session.refresh_token });
    assert.equal(refresh.status, 401, JSON.stringify(refresh.body));
    const sessions = await client.get('/sessions', { token: (await ownerLogin()).access_token });
    assert.equal(sessions.status, 200);
    assert.ok(!sessions.body.items.some((s: any) => s.id === session.session_id), 'the ended session is not listed as live');
  });

  test('an account registered right before kill -9 exists after restart and can sign in', async () => {
    const admin = await ownerLogin();
    const invite = await client.post('/admin/invites', { role: 'member' }, { token: admin.access_token });
    assert.equal(invite.status, 201, JSON.stringify(invite.body));
    const reg = await client.post('/auth/register', { username: 'dana', password: 'dana-password-1', invite_code: invite.body.code });
    assert.equal(reg.status, 201, JSON.stringify(reg.body));
    await crashAndRestart();
    const login = await client.post('/auth/login', { username: 'dana', password: 'dana-password-1' });
    assert.equal(login.status, 200, JSON.stringify(login.body));
    assert.equal(login.body.user.id, reg.body.user.id);
    assert.equal(login.body.user.role, 'member');
    // The invite's single use was recorded with the account.
    const check = await client.get(`/invites/${encodeURIComponent(invite.body.code)}/check`);
    assert.equal(check.status, 200);
    assert.equal(check.body.valid, false);
  });

  test('SIGTERM shuts the server down cleanly with exit code 0, even with a WebSocket open, and the data is intact', async () => {
    const admin = await ownerLogin();
    const ws = new WebSocket(server!.url.replace(/^http/, 'ws') + '/api/v1/ws', {
      headers: { authorization: `Bearer ${admin.access_token}` },
    });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const wsClosed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.on('error', () => {});
    const started = Date.now();
    const proc = server!.process;
    await Promise.race([
      server!.stop(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('no exit within 10 s of SIGTERM')), 10_000)),
    ]);
    assert.equal(proc.exitCode, 0, server!.output());
    assert.equal(proc.signalCode, null);
    assert.ok(Date.now() - started < 10_000);
    await wsClosed;
    assert.doesNotMatch(server!.output(), /"level":"error"/);

    await start();
    const me = await client.get('/me', { token: admin.access_token });
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.totp_enabled, true);
  });
});
