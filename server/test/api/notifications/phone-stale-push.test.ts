import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { browserKeys, decryptPush, PushServiceFake } from '../../helpers/push-service.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

// "This phone has not backed up for 7 days" is about one phone: it is pushed to that phone
// alone, not to the person's computer nor to their other phone that backed up yesterday (each
// push subscription belongs to the device, the session, that made it). The bell on every
// device still lists it.

const DAY_MS = 24 * 3_600_000;

test('a phone silent for a week is pushed "has not backed up" alone; the same person’s computer and other phone receive nothing', async () => {
  const dataDir = await makeTempDir();
  const pushService = await PushServiceFake.start();
  let t: TestServer = await startTestServer({ dataDir, pushServices: [pushService.origin] });
  try {
    const owner = await setupOwner(t.client);
    const mum = await createMember(t.client, owner, 'mum');
    const oldPhone = mum;
    const computer = await login(t.client, 'mum', mum.password);
    const newPhone = await login(t.client, 'mum', mum.password);
    const keys = new Map<string, ReturnType<typeof browserKeys>>();
    for (const [device, name] of [
      [oldPhone, 'old-phone'],
      [computer, 'computer'],
      [newPhone, 'new-phone'],
    ] as [SignedIn, string][]) {
      keys.set(name, browserKeys());
      const endpoint = `${pushService.origin}/send/${name}`;
      const res = await t.client.post('/push/subscriptions', { endpoint, keys: keys.get(name)!.json }, { token: device.access });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    assert.equal((await t.client.post('/me/phone-backups', undefined, { token: oldPhone.access })).status, 204);
    assert.equal((await t.client.post('/me/phone-backups', undefined, { token: newPhone.access })).status, 204);
    await t.server.close();

    // The old phone last backed up 8 days ago, the new one yesterday.
    const db = openConnection(path.join(dataDir, 'hearth.db'));
    const age = db.prepare('UPDATE phone_backups SET backed_up_at = backed_up_at - ? WHERE session_id = ?');
    age.run(8 * DAY_MS, oldPhone.sessionId);
    age.run(1 * DAY_MS, newPhone.sessionId);
    db.close();

    // The hourly job also runs as the server starts.
    t = await startTestServer({ dataDir, pushServices: [pushService.origin] });
    const [message] = await pushService.waitFor(1);
    assert.equal(message!.path, '/send/old-phone');
    const payload = JSON.parse(decryptPush(message!.body, keys.get('old-phone')!));
    assert.equal(payload.kind, 'phone_backup_stale');
    assert.match(payload.title, /has not backed up for 8 days$/);
    await new Promise((resolve) => setTimeout(resolve, 400));
    assert.deepEqual(
      pushService.received.map((r) => r.path),
      ['/send/old-phone'],
      'the computer and the phone that backed up yesterday were sent nothing',
    );
    // In the app it is one notification of the person's, seen from every device.
    for (const device of [oldPhone, computer, newPhone]) {
      const items = (await t.client.get('/notifications', { token: device.access })).body.items;
      assert.deepEqual(
        items.map((n: any) => n.id),
        [payload.id],
      );
    }
  } finally {
    await t.close();
    await pushService.close();
  }
});
