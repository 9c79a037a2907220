/**
 * The desktop app's server is closed to the network until its owner exists, then opens
 * without a restart: the plan for each listen address, the handover of the port from
 * loopback to a wildcard (a request under way and a connection open across it carry on),
 * and which callers count as the PC itself for setup.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import { describe, test } from 'node:test';
import { Listening, listenPlan } from '../../src/http/listening.ts';
import { isThisPc } from '../../src/services/identity/setup-gate.ts';

describe('listenPlan', () => {
  const before = { ownerExists: false };
  const after = { ownerExists: true };

  test('the desktop before its owner: loopback first, then the wildcard takes the port over, or a LAN address is added', () => {
    assert.deepEqual(listenPlan('0.0.0.0', before), { first: '127.0.0.1', then: { rebind: '0.0.0.0' } });
    assert.deepEqual(listenPlan('::', before), { first: '127.0.0.1', then: { rebind: '::' } });
    assert.deepEqual(listenPlan('192.168.1.20', before), { first: '127.0.0.1', then: { add: '192.168.1.20' } });
  });

  test("the desktop with its owner: a wildcard at once; a specific address beside the window's loopback one", () => {
    assert.deepEqual(listenPlan('0.0.0.0', after), { first: '0.0.0.0', then: null });
    assert.deepEqual(listenPlan('192.168.1.20', after), { first: '127.0.0.1', then: { add: '192.168.1.20' } });
  });

  test('headless, or a loopback host, listens where it is told', () => {
    assert.deepEqual(listenPlan('127.0.0.1', before), { first: '127.0.0.1', then: null });
    assert.deepEqual(listenPlan('localhost', before), { first: 'localhost', then: null });
    assert.deepEqual(listenPlan('0.0.0.0', null), { first: '0.0.0.0', then: null });
    assert.deepEqual(listenPlan('192.168.1.20', null), { first: '192.168.1.20', then: null });
  });
});

describe('Listening.widen with a handover (rebind)', () => {
  test('the port moves to the new listener; a request under way when it moves is answered, and the next ones are too', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const underWay = new Promise<void>((resolve) => (arrived = resolve));
    const server = http.createServer((req, res) => {
      if (req.url === '/slow') {
        arrived();
        void held.then(() => res.end('slow done'));
      } else res.end('ok');
    });
    // Rebinding to the same loopback address exercises the handover without leaving this machine.
    const listening = new Listening(server, { first: '127.0.0.1', then: { rebind: '127.0.0.1' } });
    const port = await listening.start(0);
    const get = (path: string) =>
      new Promise<string>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve(body));
          })
          .on('error', reject);
      });
    try {
      const slow = get('/slow');
      await underWay;
      await listening.widen();
      assert.equal(listening.port, port);
      assert.equal((server.address() as { port: number }).port, port, 'the same port, listening again');
      assert.equal(await get('/after'), 'ok');
      release();
      assert.equal(await slow, 'slow done');
      await listening.widen();
      assert.equal(await get('/again'), 'ok', 'a second widen changes nothing');
    } finally {
      release();
      listening.close();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('isThisPc', () => {
  test('127.0.0.1 and ::1 (also IPv4-mapped) are this PC; other addresses, unknown ones and proxied requests are not', () => {
    for (const ip of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(isThisPc({ ip, userAgent: null }), true, ip);
    for (const ip of ['127.0.0.2', '192.168.1.20', 'fe80::1', '::ffff:192.168.1.20', null])
      assert.equal(isThisPc({ ip, userAgent: null }), false, String(ip));
    assert.equal(isThisPc({ ip: '127.0.0.1', userAgent: null, forwarded: true }), false);
  });
});
