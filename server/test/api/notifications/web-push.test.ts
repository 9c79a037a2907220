import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { browserKeys, decryptPush, PushServiceFake, verifyVapid } from '../../helpers/push-service.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Web Push end to end: the server sends each new notification to the devices that said yes,
// encrypted for the browser alone (RFC 8291) and signed with its VAPID key (RFC 8292), and only
// to the push services it is told to trust. A push service of the test's own on 127.0.0.1
// checks the signature and decrypts with the keys a browser would hold.

let t: TestServer;
let pushService: PushServiceFake;
/** Another local server, never on the list: nothing may reach it. */
let elsewhere: PushServiceFake;
let owner: SignedIn;
let people = 0;

before(async () => {
  pushService = await PushServiceFake.start();
  elsewhere = await PushServiceFake.start();
  t = await startTestServer({ pushServices: [pushService.origin] });
  owner = await setupOwner(t.client);
});
after(async () => {
  await t.close();
  await pushService.close();
  await elsewhere.close();
});

function person(): Promise<SignedIn> {
  return createMember(t.client, owner, `push${++people}`);
}

async function subscribe(who: SignedIn, endpoint: string, keys = browserKeys()) {
  const res = await t.client.post('/push/subscriptions', { endpoint, expirationTime: null, keys: keys.json }, { token: who.access });
  return { res, keys };
}

describe('Web Push', () => {
  test('a notification reaches the subscribed phone signed with the served VAPID key and encrypted for it alone', async () => {
    const [dad, mum] = [await person(), await person()];
    const key = await t.client.get('/push/key', { token: mum.access });
    assert.equal(key.status, 200);
    assert.deepEqual(Object.keys(key.body), ['public_key']);
    assert.equal(Buffer.from(key.body.public_key, 'base64url').length, 65);
    assert.deepEqual((await t.client.get('/push/key', { token: dad.access })).body, key.body, 'one key for the server');

    const { res, keys } = await subscribe(mum, `${pushService.origin}/send/mums-phone`);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      id: res.body.id,
      service: new URL(pushService.origin).host,
      this_device: true,
      created_at: res.body.created_at,
    });
    const start = pushService.received.length;

    const album = await makeAlbum(t, dad, 'Seaside');
    await invite(t, dad, album.id, mum, 'viewer');
    const [message] = (await pushService.waitFor(start + 1)).slice(start);
    assert.equal(message!.path, '/send/mums-phone');
    assert.equal(message!.headers['content-encoding'], 'aes128gcm');
    assert.ok(Number(message!.headers.ttl) > 0);
    verifyVapid(message!.headers, key.body.public_key, pushService.origin);
    const payload = JSON.parse(decryptPush(message!.body, keys));
    const [told] = (await t.client.get('/notifications', { token: mum.access })).body.items;
    assert.deepEqual(payload, { id: told.id, kind: 'shared_with_you', title: told.title, body: told.body, link: `/albums/${album.id}` });
    // Someone else's keys cannot read it.
    assert.throws(() => decryptPush(message!.body, browserKeys()));
    // Dad never subscribed: nothing went anywhere for him.
    assert.equal(pushService.received.length, start + 1);
  });

  test('an endpoint off the list, or on plain http, is refused and never contacted', async () => {
    const mum = await person();
    for (const endpoint of [
      `${elsewhere.origin}/send/x`,
      'http://fcm.googleapis.com/fcm/send/x',
      'https://evil.example/push',
      'https://fcm.googleapis.com.evil.example/x',
      'https://user@fcm.googleapis.com/x',
      'file:///etc/passwd',
    ]) {
      const { res } = await subscribe(mum, endpoint);
      assertError(res, 400, 'push_endpoint_refused', 'endpoint');
    }
    assertError(
      (await subscribe(mum, `${pushService.origin}/x`, { ...browserKeys(), json: { p256dh: 'short', auth: 'AAAA' } })).res,
      400,
      'invalid_input',
    );
    assert.deepEqual((await t.client.get('/push/subscriptions', { token: mum.access })).body.items, []);
    assert.equal(elsewhere.received.length, 0);
  });

  test('a push service answering 410 ends that subscription; a redirect is not followed', async () => {
    const [dad, mum] = [await person(), await person()];
    pushService.answer = (path) =>
      path === '/send/gone'
        ? { status: 410 }
        : path === '/send/moved'
          ? { status: 307, headers: { location: `${elsewhere.origin}/stolen` } }
          : { status: 201 };
    try {
      const gone = (await subscribe(mum, `${pushService.origin}/send/gone`)).res.body;
      const moved = (await subscribe(mum, `${pushService.origin}/send/moved`)).res.body;
      assert.equal((await t.client.get('/push/subscriptions', { token: mum.access })).body.items.length, 2);
      await invite(t, dad, (await makeAlbum(t, dad, 'Gone')).id, mum, 'viewer');
      for (let i = 0; ; i++) {
        const left = (await t.client.get('/push/subscriptions', { token: mum.access })).body.items.map((s: any) => s.id);
        if (left.length === 1) {
          assert.deepEqual(left, [moved.id]);
          break;
        }
        assert.ok(i < 200, 'the 410 subscription was dropped');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      assert.ok(pushService.received.some((r) => r.path === '/send/moved'));
      assert.equal(elsewhere.received.length, 0, 'the redirect was not followed');
      assert.ok(gone.id);
    } finally {
      pushService.answer = () => ({ status: 201 });
    }
  });

  test('nothing is pushed for a kind turned off, nor after the device removes its subscription', async () => {
    const [dad, mum] = [await person(), await person()];
    const sub = (await subscribe(mum, `${pushService.origin}/send/quiet`)).res.body;
    await t.client.request('PUT', '/me/notification-settings', { token: mum.access, body: { kinds: { shared_with_you: false } } });
    await invite(t, dad, (await makeAlbum(t, dad, 'Hush')).id, mum, 'viewer');
    await t.client.request('PUT', '/me/notification-settings', { token: mum.access, body: { kinds: { shared_with_you: true } } });
    assert.equal((await t.client.delete(`/push/subscriptions/${sub.id}`, { token: mum.access })).status, 204);
    assertError(await t.client.delete(`/push/subscriptions/${sub.id}`, { token: mum.access }), 404, 'not_found');
    await invite(t, dad, (await makeAlbum(t, dad, 'Hush 2')).id, mum, 'viewer');
    assert.equal((await t.client.get('/notifications', { token: mum.access })).body.items.length, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(pushService.received.filter((r) => r.path === '/send/quiet').length, 0);
  });

  test("another account cannot remove Mum's subscription", async () => {
    const [dad, mum] = [await person(), await person()];
    const sub = (await subscribe(mum, `${pushService.origin}/send/mine`)).res.body;
    assertError(await t.client.delete(`/push/subscriptions/${sub.id}`, { token: dad.access }), 404, 'not_found');
    assert.deepEqual((await t.client.get('/push/subscriptions', { token: dad.access })).body.items, []);
    assert.equal((await t.client.get('/push/subscriptions', { token: mum.access })).body.items.length, 1);
  });
});
