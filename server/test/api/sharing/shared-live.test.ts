import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { EventSocket, type EventMessage } from '../../helpers/events.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// The Shared page follows these events: a new album member and a new partner hear at once, and
// someone else in the family, who may not see the album or the photos, hears nothing of either.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `sharedlive${++accounts}`);
}

/** An event everyone receives: what a socket got before it is all it was sent. */
async function sentinel(name: string): Promise<void> {
  const res = await t.client.patch('/server/settings', { server_name: name }, { token: admin.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}
const isSentinel = (name: string) => (m: EventMessage) => m.type === 'server.settings_changed' && m.payload?.settings?.server_name === name;

test('Mum hears album.changed when Dad adds her to his album and partner_share.changed when he starts sharing his photos; Emma hears neither', async () => {
  const [dad, mum, emma] = [await person(), await person(), await person()];
  const beach = await uploadPhoto(t, dad, 'beach.jpg', { when: '2023:07:14 10:00:00' });
  const album = await makeAlbum(t, dad, 'Seaside', [beach]);
  const mumSocket = await EventSocket.open(t.url, mum.access);
  const emmaSocket = await EventSocket.open(t.url, emma.access);
  try {
    await sentinel('before sharing');
    await emmaSocket.until(isSentinel('before sharing'));
    await invite(t, dad, album.id, mum, 'viewer');
    await mumSocket.waitFor((m) => m.type === 'album.changed' && m.payload.album_id === album.id);
    const partner = await t.client.post('/partner-shares', { user_id: mum.userId }, { token: dad.access });
    assert.equal(partner.status, 201, JSON.stringify(partner.body));
    await mumSocket.waitFor(
      (m) => m.type === 'partner_share.changed' && m.payload.owner_id === dad.userId && m.payload.partner_id === mum.userId,
    );
    await sentinel('after sharing');
    const heard = await emmaSocket.until(isSentinel('after sharing'));
    assert.deepEqual(
      heard.filter((m) => m.type.startsWith('album.') || m.type.startsWith('partner_share.') || m.type === 'share.received'),
      [],
    );
    assert.ok(!JSON.stringify(heard).includes('Seaside'), 'the album is not Emma’s to know of');
  } finally {
    mumSocket.close();
    emmaSocket.close();
  }
});
