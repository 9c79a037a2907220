import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import WebSocket, { type RawData } from 'ws';
import type { SettingsView } from '../../../src/contract/server-responses.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';

const WS_PATH = '/api/v1/ws';

function wsUrl(t: TestServer, path = WS_PATH): string {
  return t.url.replace(/^http/, 'ws') + path;
}

type Message = EventMessage;
type Client = EventSocket;
const Client = {
  open: (url: string, options: WebSocket.ClientOptions = {}) => EventSocket.connect(url, options),
  bearer: (t: TestServer, who: SignedIn, options: WebSocket.ClientOptions = {}) =>
    EventSocket.connect(wsUrl(t), { ...options, headers: { authorization: `Bearer ${who.access}` } }),
};

interface Refusal {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** Attempts an upgrade that must be refused; resolves with the HTTP answer the server gave instead. */
function refusedUpgrade(url: string, options: WebSocket.ClientOptions = {}): Promise<Refusal> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options);
    ws.on('error', (error) => reject(error));
    ws.once('open', () => {
      ws.terminate();
      reject(new Error('the upgrade was accepted'));
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : JSON.parse(text) });
        ws.terminate();
      });
    });
  });
}

function assertEnvelope(body: any, code: string): void {
  assert.equal(typeof body?.error?.message, 'string', JSON.stringify(body));
  assert.equal(body.error.code, code, JSON.stringify(body));
}

const isType = (type: string) => (m: Message) => m.type === type;

describe('WebSocket authentication at the upgrade', () => {
  let t: TestServer;
  let owner: SignedIn;
  let alice: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    alice = await createMember(t.client, owner, 'alice');
  });
  after(() => t.close());

  test('a full-scope bearer token in the Authorization header opens the channel as that account', async () => {
    const ws = await Client.bearer(t, alice);
    try {
      assert.equal(t.server.gateway.connectionCount, 1);
      assert.deepEqual(
        t.server.gateway.stats().map((s) => s.userId),
        [alice.userId],
      );
    } finally {
      ws.close();
    }
  });

  test('?access_token= also opens the channel and events for that account arrive on it', async () => {
    const ws = await Client.open(`${wsUrl(t)}?access_token=${encodeURIComponent(alice.access)}`);
    try {
      const res = await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: 5_000_000 }, { token: owner.access });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [event] = await ws.until(isType('quota.updated'));
      assert.equal(event!.payload.user_id, alice.userId);
    } finally {
      ws.close();
    }
  });

  test('an upgrade without any token is refused with HTTP 401 and the error envelope', async () => {
    const refusal = await refusedUpgrade(wsUrl(t));
    assert.equal(refusal.status, 401);
    assert.match(String(refusal.headers['content-type']), /application\/json/);
    assert.equal(refusal.headers['referrer-policy'], 'no-referrer');
    // The same code an HTTP route gives for a missing token.
    const http = await t.client.get('/me');
    assert.equal(http.status, 401);
    assertEnvelope(refusal.body, http.body.error.code);
    assert.equal(t.server.gateway.connectionCount, 0);
  });

  test('a garbage or forged token is refused with HTTP 401, in the header and in the query', async () => {
    const forged = alice.access.slice(0, -4) + (alice.access.endsWith('AAAA') ? 'BBBB' : 'AAAA');
    for (const token of ['garbage', 'a.b.c.d', forged]) {
      const viaHeader = await refusedUpgrade(wsUrl(t), { headers: { authorization: `Bearer ${token}` } });
      assert.equal(viaHeader.status, 401, token);
      assertEnvelope(viaHeader.body, 'invalid_token');
      const viaQuery = await refusedUpgrade(`${wsUrl(t)}?access_token=${encodeURIComponent(token)}`);
      assert.equal(viaQuery.status, 401, token);
      assertEnvelope(viaQuery.body, 'invalid_token');
    }
    const notBearer = await refusedUpgrade(wsUrl(t), { headers: { authorization: `Basic ${alice.access}` } });
    assert.equal(notBearer.status, 401);
    assert.equal(t.server.gateway.connectionCount, 0);
  });

  test('the access token of a signed-out session no longer opens the channel (401)', async () => {
    const other = await login(t.client, 'alice', alice.password);
    assert.equal((await t.client.post('/auth/logout', undefined, { token: other.access })).status, 204);
    const refusal = await refusedUpgrade(wsUrl(t), { headers: { authorization: `Bearer ${other.access}` } });
    assert.equal(refusal.status, 401);
  });

  test('a pending-scope token (device approval on) is refused with HTTP 403 pending_approval', async () => {
    const on = await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    try {
      const res = await t.client.post('/auth/login', { username: 'alice', password: alice.password });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.equal(res.body.status, 'pending');
      const pending: string = res.body.access_token;
      const viaHeader = await refusedUpgrade(wsUrl(t), { headers: { authorization: `Bearer ${pending}` } });
      assert.equal(viaHeader.status, 403);
      assertEnvelope(viaHeader.body, 'pending_approval');
      const viaQuery = await refusedUpgrade(`${wsUrl(t)}?access_token=${encodeURIComponent(pending)}`);
      assert.equal(viaQuery.status, 403);
      assertEnvelope(viaQuery.body, 'pending_approval');
    } finally {
      const off = await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
      assert.equal(off.status, 200);
    }
  });

  test('an upgrade on any other path is refused with HTTP 404 not_found, even with a good token', async () => {
    for (const path of ['/api/v1/wss', '/api/v1/ws/extra', '/ws', '/api/v2/ws']) {
      const refusal = await refusedUpgrade(wsUrl(t, path), { headers: { authorization: `Bearer ${alice.access}` } });
      assert.equal(refusal.status, 404, path);
      assertEnvelope(refusal.body, 'not_found');
    }
    assert.equal(t.server.gateway.connectionCount, 0);
  });

  test('a plain GET /api/v1/ws without an upgrade answers 426 upgrade_required', async () => {
    const res = await t.client.get('/ws', { token: alice.access });
    assert.equal(res.status, 426);
    assertEnvelope(res.body, 'upgrade_required');
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
  });
});

describe('event scoping and message shape', () => {
  let t: TestServer;
  let owner: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  let wsOwner: Client;
  let wsAlice: Client;
  let wsBob: Client;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    alice = await createMember(t.client, owner, 'alice');
    bob = await createMember(t.client, owner, 'bob');
    wsOwner = await Client.bearer(t, owner);
    wsAlice = await Client.bearer(t, alice);
    wsBob = await Client.bearer(t, bob);
  });
  after(async () => {
    for (const ws of [wsOwner, wsAlice, wsBob]) ws.close();
    await t.close();
  });

  /** An event that reaches everyone: whatever a client got before it is what it was sent. */
  async function sentinel(name: string): Promise<void> {
    const res = await t.client.patch('/server/settings', { server_name: name }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  const isSentinel = (name: string) => (m: Message) => m.type === 'server.settings_changed' && m.payload.settings.server_name === name;

  test('PATCH /server/settings emits server.settings_changed {type, at, payload} to every signed-in account', async () => {
    const before = Date.now();
    const res = await t.client.patch('/server/settings', { server_name: 'Family Box' }, { token: owner.access });
    assert.equal(res.status, 200);
    for (const ws of [wsOwner, wsAlice, wsBob]) {
      const got = await ws.until(isType('server.settings_changed'));
      assert.equal(got.length, 1, JSON.stringify(got));
      const message = got[0]!;
      assert.deepEqual(Object.keys(message).sort(), ['at', 'payload', 'type']);
      assert.equal(typeof message.at, 'number');
      assert.ok(Number.isInteger(message.at) && message.at >= before && message.at <= Date.now(), String(message.at));
      assert.equal(message.payload.settings.server_name, 'Family Box');
      assert.deepEqual(message.payload.settings, res.body);
    }
  });

  test('a settings PATCH by a member is refused and emits nothing', async () => {
    const res = await t.client.patch('/server/settings', { server_name: 'Hijacked' }, { token: alice.access });
    assert.equal(res.status, 403);
    await sentinel('after-member-patch');
    for (const ws of [wsOwner, wsAlice, wsBob]) {
      const got = await ws.until(isSentinel('after-member-patch'));
      assert.deepEqual(
        got.map((m) => m.payload.settings.server_name),
        ['after-member-patch'],
      );
    }
  });

  test('quota.updated reaches only the account whose quota changed', async () => {
    const res = await t.client.patch(`/admin/users/${alice.userId}`, { quota_bytes: 1_073_741_824 }, { token: owner.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await sentinel('after-quota');
    const forAlice = await wsAlice.until(isSentinel('after-quota'));
    assert.deepEqual(
      forAlice.map((m) => m.type),
      ['quota.updated', 'server.settings_changed'],
    );
    const quota = forAlice[0]!;
    assert.deepEqual(Object.keys(quota).sort(), ['at', 'payload', 'type']);
    assert.equal(quota.payload.user_id, alice.userId);
    assert.equal(quota.payload.limit, 1_073_741_824);
    assert.equal(typeof quota.payload.used, 'number');
    for (const ws of [wsOwner, wsBob]) {
      const got = await ws.until(isSentinel('after-quota'));
      assert.deepEqual(
        got.map((m) => m.type),
        ['server.settings_changed'],
        'quota.updated leaked to another account',
      );
    }
  });

  test('device.pending reaches the account and the admins, not another member', async () => {
    const on = await t.client.patch('/server/settings', { require_device_approval: true }, { token: owner.access });
    assert.equal(on.status, 200);
    try {
      for (const ws of [wsOwner, wsAlice, wsBob]) await ws.until(isType('server.settings_changed'));
      const res = await t.client.post('/auth/login', { username: 'alice', password: alice.password, device_name: 'Kitchen tablet' });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      for (const ws of [wsAlice, wsOwner]) {
        // The last one: the owners are also told of it (notification.created) once it has gone out.
        const event = (await ws.until(isType('device.pending'))).at(-1);
        assert.equal(event!.payload.session_id, res.body.session_id);
        assert.equal(event!.payload.user_id, alice.userId);
        assert.equal(event!.payload.username, 'alice');
        assert.equal(event!.payload.device_name, 'Kitchen tablet');
        assert.equal(event!.payload.pairing_code, res.body.pairing_code, 'the console shows the code beside the request');
      }
      // The approval reaches the same audience.
      const approve = await t.client.post(`/devices/${res.body.session_id}/approve`, undefined, { token: owner.access });
      assert.equal(approve.status, 204, JSON.stringify(approve.body));
      for (const ws of [wsAlice, wsOwner]) {
        const event = (await ws.until(isType('device.approved'))).at(-1);
        assert.equal(event!.payload.session_id, res.body.session_id);
      }
    } finally {
      const off = await t.client.patch('/server/settings', { require_device_approval: false }, { token: owner.access });
      assert.equal(off.status, 200);
    }
    await sentinel('after-device');
    const forBob = await wsBob.until(isSentinel('after-device'));
    assert.deepEqual(
      forBob.map((m) => m.type),
      ['server.settings_changed', 'server.settings_changed'],
      'device events leaked to another member',
    );
    for (const ws of [wsOwner, wsAlice]) {
      const got = await ws.until(isSentinel('after-device'));
      assert.ok(
        got.every((m) => m.type === 'server.settings_changed'),
        JSON.stringify(got.map((m) => m.type)),
      );
    }
  });

  test('a closed connection is forgotten by the gateway and later events do not reach it', async () => {
    const count = () => t.server.gateway.connectionCount;
    const extra = await Client.bearer(t, bob);
    assert.equal(count(), 4);
    extra.ws.close();
    await extra.closed;
    for (let i = 0; i < 50 && count() !== 3; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(count(), 3);
    await sentinel('after-close');
    assert.deepEqual(extra.pending(), []);
    await wsBob.until(isSentinel('after-close'));
  });
});

describe('session.revoked', () => {
  let t: TestServer;
  let owner: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    await createMember(t.client, owner, 'carol');
  });
  after(() => t.close());

  async function twoSessions(): Promise<[SignedIn, SignedIn, Client, Client]> {
    const a = await login(t.client, 'carol', 'carol-password-1');
    const b = await login(t.client, 'carol', 'carol-password-1');
    return [a, b, await Client.bearer(t, a), await Client.bearer(t, b)];
  }

  test("POST /auth/logout sends session.revoked to that session's socket and closes it with 4001; another session stays open", async () => {
    const [a, b, wsA, wsB] = await twoSessions();
    try {
      const res = await t.client.post('/auth/logout', undefined, { token: a.access });
      assert.equal(res.status, 204);
      const got = await wsA.until(isType('session.revoked'));
      assert.deepEqual(
        got.map((m) => m.type),
        ['session.revoked'],
      );
      assert.equal(got[0]!.payload.session_id, a.sessionId);
      assert.equal(got[0]!.payload.reason, 'logout');
      const closed = await wsA.closed;
      assert.equal(closed.code, 4001);
      // The other device of the same account hears of it but stays connected and keeps receiving.
      const [seenByB] = await wsB.until(isType('session.revoked'));
      assert.equal(seenByB!.payload.session_id, a.sessionId);
      assert.ok(wsB.isOpen);
      const patch = await t.client.patch('/server/settings', { server_name: 'Still here' }, { token: owner.access });
      assert.equal(patch.status, 200);
      await wsB.until(isType('server.settings_changed'));
      assert.ok(wsB.isOpen);
      assert.equal((await t.client.get('/me', { token: b.access })).status, 200);
    } finally {
      wsA.close();
      wsB.close();
    }
  });

  test("DELETE /sessions/:id from another session closes the signed-out session's socket with 4001 and keeps the caller's open", async () => {
    const [a, b, wsA, wsB] = await twoSessions();
    try {
      const res = await t.client.delete(`/sessions/${a.sessionId}`, { token: b.access });
      assert.equal(res.status, 204, JSON.stringify(res.body));
      const [revoked] = await wsA.until(isType('session.revoked'));
      assert.equal(revoked!.payload.session_id, a.sessionId);
      assert.equal(revoked!.payload.reason, 'signed_out');
      assert.equal((await wsA.closed).code, 4001);
      await wsB.until(isType('session.revoked'));
      await new Promise((r) => setTimeout(r, 100));
      assert.ok(wsB.isOpen, "the caller's own socket must stay open");
    } finally {
      wsA.close();
      wsB.close();
    }
  });

  test('a replayed refresh token revokes the session and closes its socket with 4001', async () => {
    const [a, , wsA, wsB] = await twoSessions();
    try {
      const first = await t.client.post('/auth/refresh', { refresh_token: a.refresh });
      assert.equal(first.status, 200);
      const replay = await t.client.post('/auth/refresh', { refresh_token: a.refresh });
      assert.equal(replay.status, 401);
      assertEnvelope(replay.body, 'refresh_token_reused');
      const [revoked] = await wsA.until(isType('session.revoked'));
      assert.equal(revoked!.payload.reason, 'refresh_reuse');
      assert.equal((await wsA.closed).code, 4001);
      assert.ok(wsB.isOpen);
    } finally {
      wsA.close();
      wsB.close();
    }
  });

  test('all sockets of a revoked session are closed, not only one', async () => {
    const a = await login(t.client, 'carol', 'carol-password-1');
    const sockets = [await Client.bearer(t, a), await Client.open(`${wsUrl(t)}?access_token=${encodeURIComponent(a.access)}`)];
    const res = await t.client.post('/auth/logout', undefined, { token: a.access });
    assert.equal(res.status, 204);
    for (const ws of sockets) assert.equal((await ws.closed).code, 4001);
  });
});

/** Reads WebSocket frames sent by a server (never masked). */
function parseFrames(buffer: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  for (;;) {
    if (buffer.length - at < 2) break;
    const opcode = buffer[at]! & 0x0f;
    let length = buffer[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      if (buffer.length - at < 4) break;
      length = buffer.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (buffer.length - at < 10) break;
      length = Number(buffer.readBigUInt64BE(at + 2));
      header = 10;
    }
    if (buffer.length - at < header + length) break;
    frames.push({ opcode, payload: buffer.subarray(at + header, at + header + length) });
    at += header + length;
  }
  return { frames, rest: buffer.subarray(at) };
}

/** A WebSocket handshake done by hand on a raw TCP socket, so the test decides when (if ever) it reads. */
async function rawWebSocket(port: number, token: string, query = ''): Promise<{ socket: net.Socket; take(): Buffer }> {
  const socket = net.connect(port, '127.0.0.1');
  let buffered = Buffer.alloc(0);
  const key = crypto.randomBytes(16).toString('base64');
  socket.on('data', (chunk: Buffer) => (buffered = Buffer.concat([buffered, chunk])));
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => resolve());
  });
  socket.write(
    `GET ${WS_PATH}${query} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  for (let i = 0; i < 200 && !buffered.includes('\r\n\r\n'); i++) await new Promise((r) => setTimeout(r, 10));
  const end = buffered.indexOf('\r\n\r\n');
  assert.ok(end > 0, 'no handshake answer');
  const head = buffered.subarray(0, end).toString();
  assert.match(head, /^HTTP\/1\.1 101 /);
  const accept = crypto.createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
  assert.match(head, new RegExp(`Sec-WebSocket-Accept: ${accept.replace(/[+/]/g, '\\$&')}`, 'i'));
  buffered = buffered.subarray(end + 4);
  return {
    socket,
    take: () => {
      const out = buffered;
      buffered = Buffer.alloc(0);
      return out;
    },
  };
}

describe('bounded queue per connection', () => {
  let t: TestServer;
  let owner: SignedIn;
  let slowUser: SignedIn;
  before(async () => {
    // The byte bound (ws-limits.test.ts) is set out of the way: this is the message-count bound.
    t = await startTestServer({ ws: { queueBytes: 64 * 1024 * 1024 } });
    owner = await setupOwner(t.client);
    slowUser = await createMember(t.client, owner, 'sloth');
  });
  after(() => t.close());

  test('a client that never reads loses its oldest messages while a healthy client receives every one promptly', async () => {
    const TOTAL = 3000;
    const FILLER = 'x'.repeat(16 * 1024);
    const settings = (seq: number): SettingsView => ({
      server_name: `${seq}:${FILLER}`,
      allow_self_registration: false,
      require_device_approval: false,
      trash_retention_days: 30,
      default_quota_bytes: null,
      make_playback_copies: true,
      session_tokens_in_urls: true,
      link_reach: 'home_network',
    });
    const seqOf = (text: string) => Number(/^\{"type":"server\.settings_changed".*?"server_name":"(\d+):/.exec(text)?.[1]);

    // Asking for event counts, as the web app does: each message says how many the account was sent, so the dropped ones show as gaps.
    const slow = await rawWebSocket(t.server.port, slowUser.access, '?event_count=1');
    slow.socket.pause();
    const healthy = await Client.bearer(t, owner);
    try {
      let healthyCount = 0;
      let healthyInOrder = true;
      healthy.ws.removeAllListeners('message');
      healthy.ws.on('message', (data: RawData) => {
        const seq = seqOf(data.toString());
        if (seq !== healthyCount) healthyInOrder = false;
        healthyCount++;
      });

      const slowStats = () => t.server.gateway.stats().find((s) => s.userId === slowUser.userId)!;
      let maxQueued = 0;
      const started = performance.now();
      for (let seq = 0; seq < TOTAL; seq++) {
        t.server.bus.publish('server.settings_changed', { settings: settings(seq) }, { everyone: true });
        // Events come from requests spread over time, not from one synchronous loop.
        if (seq % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
        maxQueued = Math.max(maxQueued, slowStats().queued);
      }
      for (let i = 0; i < 1000 && healthyCount < TOTAL; i++) await new Promise((r) => setTimeout(r, 10));
      const elapsed = performance.now() - started;

      assert.equal(healthyCount, TOTAL, 'the healthy client must receive every event');
      assert.ok(healthyInOrder, 'the healthy client must receive them in order');
      assert.ok(elapsed < 15_000, `the healthy client took ${Math.round(elapsed)} ms`);
      const healthyStats = t.server.gateway.stats().find((s) => s.userId === owner.userId)!;
      assert.equal(healthyStats.dropped, 0);

      const stats = slowStats();
      assert.ok(maxQueued <= 256, `queue grew to ${maxQueued}`);
      assert.ok(stats.queued <= 256, `queue holds ${stats.queued}`);
      assert.ok(stats.dropped > 0, 'the slow client must have lost messages');

      // The slow client wakes up and reads everything the server still has for it.
      slow.socket.resume();
      const seqs: number[] = [];
      const counts: number[] = [];
      let openedAt: number | null = null;
      let rest = Buffer.alloc(0);
      for (let i = 0; i < 1000 && seqs.at(-1) !== TOTAL - 1; i++) {
        await new Promise((r) => setTimeout(r, 10));
        const parsed = parseFrames(Buffer.concat([rest, slow.take()]));
        rest = Buffer.from(parsed.rest);
        for (const frame of parsed.frames) {
          if (frame.opcode !== 1) continue;
          const message = JSON.parse(frame.payload.toString()) as { type: string; event_count?: string; payload: any };
          const n = (count: string | undefined) => Number(count?.split('.')[1]);
          if (message.type === 'socket.opened') openedAt = n(message.payload.event_count);
          else {
            seqs.push(seqOf(frame.payload.toString()));
            counts.push(n(message.event_count));
          }
        }
      }
      assert.notEqual(openedAt, null, 'the socket was first told its count');
      // Every message delivered carries its own place in what the account was sent, the dropped ones included.
      assert.deepEqual(
        counts,
        seqs.map((seq) => openedAt! + seq + 1),
      );
      assert.equal(seqs.at(-1), TOTAL - 1, 'the last message published must be the last one received');
      assert.ok(seqs.length < TOTAL / 2, `received ${seqs.length} of ${TOTAL}`);
      assert.equal(seqs.length + stats.dropped, TOTAL, 'every message was either delivered or counted as dropped');
      for (let i = 1; i < seqs.length; i++) assert.ok(seqs[i]! > seqs[i - 1]!, 'messages stay in order');
      // The newest were kept: the final queue-full of messages arrived without a gap.
      const tail = seqs.slice(-256);
      assert.deepEqual(
        tail,
        Array.from({ length: 256 }, (_, i) => TOTAL - 256 + i),
      );
      assert.ok(seqs[0]! === 0, 'the first messages went out before the socket filled up');
    } finally {
      healthy.close();
      slow.socket.destroy();
    }
  });
});

describe('heartbeat', () => {
  let t: TestServer;
  let owner: SignedIn;
  before(async () => {
    t = await startTestServer({ ws: { heartbeatMs: 200 } });
    owner = await setupOwner(t.client);
  });
  after(() => t.close());

  test('a client that stops answering pings is terminated within a few periods while a normal client stays connected', async () => {
    const normal = await Client.bearer(t, owner);
    const mute = await Client.bearer(t, owner, { autoPong: false });
    let pingsToNormal = 0;
    normal.ws.on('ping', () => pingsToNormal++);
    try {
      // Periods are counted in the normal client's pings, not in wall-clock time, so a loaded
      // machine cannot fail this. The mute client's own ping is not counted: the server's
      // terminate() resets the socket, and a reset discards what the client had not read yet.
      const closed = await Promise.race([mute.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 10_000))]);
      assert.notEqual(closed, null, 'the silent client was not terminated');
      const periodsBeforeTermination = pingsToNormal;
      assert.ok(periodsBeforeTermination >= 1, 'the server pinged before giving up');
      assert.ok(periodsBeforeTermination <= 3, `terminated after ${periodsBeforeTermination} periods`);
      assert.notEqual(closed!.code, 1000, 'terminated, not closed politely');
      // The normal client outlives many more periods.
      for (let guard = 0; pingsToNormal < periodsBeforeTermination + 4 && guard < 200; guard++) await new Promise((r) => setTimeout(r, 50));
      assert.ok(pingsToNormal >= periodsBeforeTermination + 4, `normal client saw ${pingsToNormal} pings`);
      assert.ok(normal.isOpen);
      assert.equal(t.server.gateway.connectionCount, 1);
    } finally {
      normal.close();
      mute.close();
    }
  });

  test('a raw socket that completes the handshake but never answers pings is dropped by the server', async () => {
    const raw = await rawWebSocket(t.server.port, owner.access);
    const ended = new Promise<void>((resolve) => raw.socket.once('close', () => resolve()));
    try {
      const result = await Promise.race([ended.then(() => 'closed'), new Promise((r) => setTimeout(() => r('open'), 3_000))]);
      assert.equal(result, 'closed');
      const pings = parseFrames(raw.take()).frames.filter((f) => f.opcode === 0x9);
      assert.ok(pings.length >= 1, 'the server sent pings first');
    } finally {
      raw.socket.destroy();
    }
  });
});
