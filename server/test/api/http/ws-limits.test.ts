import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { EventSocket } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/* Issue 12, finding 8: one token cannot hold the server's memory through its WebSockets. */

let t: TestServer;
let owner: SignedIn;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

const openSockets = (sessionId: string) => t.server.gateway.stats().filter((s) => s.sessionId === sessionId).length;

describe('sockets per session and per account', () => {
  test('a session opening more sockets than allowed keeps its newest ones: the oldest are closed with 4008 and a reason', async () => {
    const member = await createMember(t.client, owner, 'mona');
    const max = t.server.config.ws.maxPerSession;
    const sockets: EventSocket[] = [];
    for (let i = 0; i < max + 3; i++) sockets.push(await EventSocket.open(t.url, member.access));
    try {
      for (const old of sockets.slice(0, 3)) {
        const closed = await old.closed;
        assert.equal(closed.code, 4008);
        assert.match(closed.reason, /too many connections/);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const kept of sockets.slice(3)) assert.ok(kept.isOpen);
      assert.equal(openSockets(member.sessionId), max);
      // The newest still receive events.
      await t.client.patch('/server/settings', { server_name: 'Limits' }, { token: owner.access });
      await sockets.at(-1)!.waitFor((m) => m.type === 'server.settings_changed');
    } finally {
      for (const s of sockets) s.close();
    }
  });

  test('300 sockets on one token end with no more than the session allows', async () => {
    const member = await createMember(t.client, owner, 'nico');
    const sockets = await Promise.all(Array.from({ length: 300 }, () => EventSocket.open(t.url, member.access)));
    try {
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(openSockets(member.sessionId), t.server.config.ws.maxPerSession);
      assert.equal(sockets.filter((s) => s.isOpen).length, t.server.config.ws.maxPerSession);
    } finally {
      for (const s of sockets) s.close();
    }
  });

  test('an account spreading sockets over many sessions is capped per account as well, oldest first', async () => {
    const member = await createMember(t.client, owner, 'olga');
    const { maxPerSession, maxPerAccount } = t.server.config.ws;
    const sessions = Math.ceil(maxPerAccount / maxPerSession) + 1;
    const sockets: EventSocket[] = [];
    for (let s = 0; s < sessions; s++) {
      const session = s === 0 ? member : await login(t.client, 'olga', member.password);
      for (let i = 0; i < maxPerSession; i++) sockets.push(await EventSocket.open(t.url, session.access));
    }
    try {
      const over = sockets.length - maxPerAccount;
      assert.ok(over > 0);
      for (const old of sockets.slice(0, over)) assert.equal((await old.closed).code, 4008);
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(t.server.gateway.stats().filter((c) => c.userId === member.userId).length, maxPerAccount);
      for (const kept of sockets.slice(over)) assert.ok(kept.isOpen);
    } finally {
      for (const s of sockets) s.close();
    }
  });
});

/** A WebSocket opened by hand on a raw TCP socket, so the test decides when (if ever) it reads. */
async function rawWebSocket(port: number, token: string): Promise<net.Socket> {
  const socket = net.connect(port, '127.0.0.1');
  let head = '';
  const key = crypto.randomBytes(16).toString('base64');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('connect', () => resolve());
  });
  const answered = new Promise<void>((resolve) => {
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
  });
  socket.write(
    `GET /api/v1/ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      `Sec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer ${token}\r\n\r\n`,
  );
  await answered;
  assert.match(head, /^HTTP\/1\.1 101 /);
  socket.pause();
  return socket;
}

describe('the queue of a connection that does not read', () => {
  test('is bounded by bytes as well as by messages: 200 events of 64 KB (fewer messages than the count bound) keep at most the byte bound queued', async () => {
    const member = await createMember(t.client, owner, 'pete');
    const slow = await rawWebSocket(t.server.port, member.access);
    try {
      const stats = () => t.server.gateway.stats().find((s) => s.userId === member.userId)!;
      const { queueBytes, queueCapacity } = t.server.config.ws;
      const filler = 'x'.repeat(64 * 1024);
      assert.ok(200 < queueCapacity, 'the count bound alone would keep every one of them');
      let most = 0;
      for (let i = 0; i < 200; i++) {
        t.server.bus.publish('quota.updated', { user_id: `${i}:${filler}`, used: i, limit: null }, { users: [member.userId] });
        if (i % 4 === 3) await new Promise((resolve) => setImmediate(resolve));
        most = Math.max(most, stats().queuedBytes);
      }
      assert.ok(most <= queueBytes, `the queue held ${most} bytes`);
      assert.ok(stats().dropped > 0, 'the oldest messages were dropped');
      assert.ok(stats().queued * filler.length <= queueBytes);
    } finally {
      slow.destroy();
    }
  });
});
