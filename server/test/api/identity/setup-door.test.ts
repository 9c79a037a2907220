/**
 * A fresh headless server does not hand its owner account to the first caller on the network:
 * from another machine, POST /setup needs the setup code that `npm start` prints beside its
 * listening line; from the PC itself (127.0.0.1) it needs nothing, as before. The code is
 * random, limited like a password guess, and written nowhere but that one line.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { OWNER } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { ClientFrom } from '../../helpers/from-address.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { SETUP_ALL_MAX, SETUP_FREE_TRIES } from '../../../src/services/identity/setup-gate.ts';
import { spawnServer } from '../../helpers/spawn.ts';

describe('setup from another machine (headless)', () => {
  let t: TestServer;
  let lan: ClientFrom;

  before(async () => {
    t = await startTestServer({ rateLimit: { maxFailures: 3 } });
    // 127.0.0.2 stands for a phone on the Wi-Fi: only 127.0.0.1 and ::1 are this PC.
    lan = new ClientFrom(t.api, '127.0.0.2');
  });
  after(() => t.close());

  test('GET /status tells each caller whether setup needs the code: this PC no, another address yes, a proxied request yes', async () => {
    const here = (await t.client.get('/status')).body;
    assert.equal(here.setup_required, true);
    assert.equal(here.setup_code_required, false);
    assert.equal(here.setup_in_desktop_app, false);
    assert.equal((await lan.get('/status')).body.setup_code_required, true);
    const proxied = await t.client.get('/status', { headers: { 'X-Forwarded-For': '192.168.1.50' } });
    assert.equal(proxied.body.setup_code_required, true, 'a reverse proxy on this PC relays the network from 127.0.0.1');
  });

  test('without the code another machine gets 403 setup_code_required, and nothing is created', async () => {
    assertError(await lan.post('/setup', { username: 'guest', password: 'guest-password-1' }), 403, 'setup_code_required', 'setup_code');
    assertError(
      await lan.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: '  ' }),
      403,
      'setup_code_required',
      'setup_code',
    );
    assertError(
      await t.client.post('/setup', { username: 'guest', password: 'guest-password-1' }, { headers: { Forwarded: 'for=192.168.1.50' } }),
      403,
      'setup_code_required',
    );
    assert.equal((await t.client.get('/status')).body.setup_required, true);
  });

  test('wrong codes count like wrong passwords: 403 invalid_setup_code, then 429 rate_limited with Retry-After, even for the right code', async () => {
    const code = t.server.setup!.code;
    const wrong = code === '0000-0000' ? '1111-1111' : '0000-0000';
    const guesser = new ClientFrom(t.api, '127.0.0.3');
    for (let i = 0; i < 3; i++) {
      assertError(
        await guesser.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: wrong }),
        403,
        'invalid_setup_code',
        'setup_code',
      );
    }
    const refused = await guesser.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: code });
    assertError(refused, 429, 'rate_limited');
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.equal((await t.client.get('/status')).body.setup_required, true);
  });

  test('with the code (typed with or without its dash) another machine sets up the owner; then the code opens nothing', async () => {
    const setup = t.server.setup!;
    assert.match(setup.code, /^\d{4}-\d{4}$/);
    assert.equal(setup.url, `${t.url}/`, 'where to type it: the address family devices use');
    const res = await lan.post('/setup', { ...OWNER, setup_code: ` ${setup.code.replace('-', ' ')} ` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.role, 'admin');
    assert.equal(t.server.setup, null, 'nothing left to print');
    const status = (await lan.get('/status')).body;
    assert.deepEqual([status.setup_required, status.setup_code_required], [false, false]);
    assertError(
      await lan.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: setup.code }),
      409,
      'already_set_up',
    );
  });
});

describe('setup while others guess the code from many addresses', () => {
  const wrongFor = (code: string) => (code === '0000-0000' ? '1111-1111' : '0000-0000');

  test("guessers on other addresses cannot keep the owner's phone from setting up: its right code is checked at once, not answered 429", async () => {
    const t = await startTestServer();
    try {
      const code = t.server.setup!.code;
      let refused = 0;
      const guesses: Promise<unknown>[] = [];
      for (let a = 10; a < 13; a++) {
        const guesser = new ClientFrom(t.api, `127.0.0.${a}`);
        for (let i = 0; i < 10; i++) {
          const guess = guesser.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: wrongFor(code) });
          guesses.push(guess.then((res) => (res.status === 429 ? refused++ : undefined)));
        }
      }
      // Their lines are long: some of their guesses are already refused, others wait in them.
      for (let i = 0; i < 400 && refused === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.ok(refused > 0, 'the guessers are slowed and refused');

      const phone = new ClientFrom(t.api, '127.0.0.20');
      const res = await phone.post('/setup', { ...OWNER, setup_code: code });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal(res.body.user.username, OWNER.username);
      await Promise.all(guesses);
    } finally {
      await t.close();
    }
  });

  test(`once ${SETUP_ALL_MAX} wrong codes came from anywhere, an address past its first ${SETUP_FREE_TRIES} tries waits out the window (429, Retry-After), while a fresh address (the owner's phone) still gets its tries`, async () => {
    const t = await startTestServer();
    try {
      const code = t.server.setup!.code;
      const guessers = Array.from(
        { length: Math.ceil(SETUP_ALL_MAX / SETUP_FREE_TRIES) },
        (_, i) => new ClientFrom(t.api, `127.0.1.${i + 1}`),
      );
      for (const guesser of guessers) {
        for (let i = 0; i < SETUP_FREE_TRIES; i++) {
          assertError(
            await guesser.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: wrongFor(code) }),
            403,
            'invalid_setup_code',
          );
        }
      }
      const refused = await guessers[0]!.post('/setup', { username: 'guest', password: 'guest-password-1', setup_code: code });
      assertError(refused, 429, 'rate_limited');
      const retry = Number(refused.headers.get('retry-after'));
      assert.ok(retry > 0 && retry <= 15 * 60, `Retry-After ${retry} s: at most the window`);

      const phone = new ClientFrom(t.api, '127.0.0.30');
      assertError(await phone.post('/setup', { ...OWNER, setup_code: wrongFor(code) }), 403, 'invalid_setup_code', 'setup_code');
      const res = await phone.post('/setup', { ...OWNER, setup_code: code });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await t.close();
    }
  });
});

describe('setup from this PC', () => {
  test('needs no code (127.0.0.1), as before', async () => {
    const t = await startTestServer();
    try {
      assert.equal((await t.client.post('/setup', OWNER)).status, 200);
    } finally {
      await t.close();
    }
  });

  test('two codes of two starts differ: each start makes its own', async () => {
    const a = await startTestServer();
    const b = await startTestServer();
    try {
      assert.notEqual(a.server.setup!.code, b.server.setup!.code);
    } finally {
      await a.close();
      await b.close();
    }
  });
});

describe('npm start', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await makeTempDir();
  });
  after(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  test('a fresh install prints "Finish setup at <address> with setup code NNNN-NNNN" once, and never logs the code elsewhere', async () => {
    const server = await spawnServer(dataDir, { LOG_LEVEL: 'debug' });
    try {
      await waitFor(() => /Finish setup at/.test(server.output()));
      const match =
        /^Finish setup at (http:\/\/127\.0\.0\.1:\d+\/) with setup code (\d{4}-\d{4}) \(none is needed at http:\/\/localhost:(\d+)\/ on this PC\)$/m.exec(
          server.output(),
        );
      assert.ok(match, server.output());
      assert.equal(match[1], `${server.url}/`);
      const lan = new ClientFrom(server.api, '127.0.0.2');
      assertError(await lan.post('/setup', { ...OWNER, setup_code: '12' }), 403, 'invalid_setup_code');
      assert.equal((await lan.post('/setup', { ...OWNER, setup_code: match[2] })).status, 200);
      const digits = match[2]!.replace('-', '');
      const mentions = server
        .output()
        .split('\n')
        .filter((line) => line.includes(match[2]!) || line.includes(digits));
      assert.equal(mentions.length, 1, `only the one line for the owner:\n${mentions.join('\n')}`);
    } finally {
      await server.stop();
    }
  });

  test('once set up, a start prints no setup line', async () => {
    const server = await spawnServer(dataDir);
    await server.stop();
    assert.match(server.output(), /listening on/);
    assert.doesNotMatch(server.output(), /setup code/, 'everything it wrote, up to its exit');
  });
});

async function waitFor(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 50));
}
