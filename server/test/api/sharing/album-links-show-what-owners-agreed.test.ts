import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { addToAlbum, albumItems, invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { assertError } from '../../helpers/assert.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// Only a photo's owner decides who outside the family sees it: an album's public link shows the
// album owner's own photos and those a contributor let it show when adding them, never a photo
// its adder was only given access to. The link's page, its thumbnails, downloads and videos all
// say 404 for the others.

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `agreed${++accounts}`);
}

async function makeLink(who: SignedIn, albumId: string): Promise<string> {
  const res = await t.client.post(`/albums/${albumId}/share`, {}, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.token;
}

/** As a visitor without an account. */
const visit = (route: string) => t.client.get(route);

async function linkIds(token: string): Promise<string[]> {
  const res = await visit(`/s/${token}/children`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.map((n: { id: string }) => n.id);
}

/** Every way a visitor could reach a photo through the link: each must be 404 not_found. */
async function assertLinkHides(token: string, nodeId: string): Promise<void> {
  for (const route of [
    `/s/${token}/download?node_id=${nodeId}`,
    `/s/${token}/download?node_id=${nodeId}&inline=1`,
    `/s/${token}/thumbnail?node_id=${nodeId}`,
    `/s/${token}/thumbnail?node_id=${nodeId}&size=1024`,
    `/s/${token}/playback?node_id=${nodeId}`,
    `/s/${token}/playback-copy?node_id=${nodeId}`,
  ]) {
    assertError(await visit(route), 404, 'not_found');
  }
  assert.ok(!(await linkIds(token)).includes(nodeId), 'not listed');
}

describe('an album link never shows what its adder was only given access to', () => {
  test('a viewer grant fed into an album, given to a third member and put on a public link: the member and the visitor get nothing', async () => {
    const grandma = await person();
    const emma = await person();
    const cousin = await person();
    // Grandma lets Emma look at her folder, and no one else.
    const folder = await createFolder(t.client, grandma, 'Grandma’s private');
    const hers = await uploadPhoto(t, grandma, 'grandma-in-bath.jpg', { parentId: folder.id });
    await t.server.mediaIdle();
    const grant = await t.client.post(
      `/nodes/${folder.id}/permissions`,
      { user_id: emma.userId, role: 'viewer' },
      { token: grandma.access },
    );
    assert.equal(grant.status, 201);

    // Emma puts it in her album, gives the album to her cousin and makes a public link.
    const album = await makeAlbum(t, emma, 'Family', [hers]);
    await invite(t, emma, album.id, cousin, 'viewer');
    const token = await makeLink(emma, album.id);

    // Emma still sees it in her album: she may look at it anyway.
    assert.deepEqual(
      (await albumItems(t, emma, album.id)).map((n) => n.id),
      [hers],
    );
    // The Internet gets nothing of it.
    await assertLinkHides(token, hers);
    // Nor the cousin: Grandma never shared it with her.
    assert.deepEqual(await albumItems(t, cousin, album.id), []);
    for (const route of [`/nodes/${hers}`, `/nodes/${hers}/download`, `/nodes/${hers}/thumbnail`]) {
      assertError(await t.client.get(route, { token: cousin.access }), 404, 'not_found');
    }
  });

  test('an editor grant lets Emma change the photo, not choose who sees it: the same', async () => {
    const grandma = await person();
    const emma = await person();
    const cousin = await person();
    const folder = await createFolder(t.client, grandma, 'Shared to edit');
    const hers = await uploadPhoto(t, grandma, 'edit-me.jpg', { parentId: folder.id });
    await t.server.mediaIdle();
    await t.client.post(`/nodes/${folder.id}/permissions`, { user_id: emma.userId, role: 'editor' }, { token: grandma.access });
    const album = await makeAlbum(t, emma, 'Edited', [hers]);
    await invite(t, emma, album.id, cousin, 'contributor');
    const token = await makeLink(emma, album.id);
    assert.deepEqual(await albumItems(t, cousin, album.id), []);
    await assertLinkHides(token, hers);
  });
});

describe('a contributor’s photos on the album’s link', () => {
  test('shown only when the contributor said yes as they added them; the owner’s own always', async () => {
    const emma = await person();
    const mum = await person();
    const emmas = await uploadPhoto(t, emma, 'emma.jpg', { when: '2024:08:01 10:00:00' });
    const mumsYes = await uploadPhoto(t, mum, 'mum-yes.jpg', { when: '2024:08:02 10:00:00' });
    const mumsNo = await uploadPhoto(t, mum, 'mum-no.jpg', { when: '2024:08:03 10:00:00' });
    const mumsUnsaid = await uploadPhoto(t, mum, 'mum-unsaid.jpg', { when: '2024:08:04 10:00:00' });
    await t.server.mediaIdle();
    const album = await makeAlbum(t, emma, 'Summer', [emmas]);
    await invite(t, emma, album.id, mum, 'contributor');
    const token = await makeLink(emma, album.id);

    const add = (ids: string[], body: Record<string, unknown>) =>
      t.client.post(`/albums/${album.id}/items`, { node_ids: ids, ...body }, { token: mum.access });
    assert.equal((await add([mumsYes], { on_links: true })).status, 200);
    assert.equal((await add([mumsNo], { on_links: false })).status, 200);
    assert.equal((await add([mumsUnsaid], {})).status, 200);

    // The family sees all four; the link shows Emma's and the one Mum let it.
    assert.equal((await albumItems(t, emma, album.id)).length, 4);
    assert.deepEqual(await linkIds(token), [emmas, mumsYes]);
    assert.equal((await visit(`/s/${token}/download?node_id=${mumsYes}`)).status, 200);
    await assertLinkHides(token, mumsNo);
    await assertLinkHides(token, mumsUnsaid);
    // Each item says whether the link shows it.
    assert.deepEqual(
      (await albumItems(t, mum, album.id)).map((n) => [n.name, n.on_links, n.shared_with_album]),
      [
        ['emma.jpg', true, true],
        ['mum-yes.jpg', true, true],
        ['mum-no.jpg', false, true],
        ['mum-unsaid.jpg', false, true],
      ],
    );

    // Adding again with another answer changes it.
    assert.equal((await add([mumsYes], { on_links: false })).status, 200);
    await assertLinkHides(token, mumsYes);
  });

  test('photos uploaded straight into the album follow the answer given with the upload folder', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Straight in');
    await invite(t, emma, album.id, mum, 'contributor');
    const token = await makeLink(emma, album.id);

    const folderYes = await t.client.post(`/albums/${album.id}/upload-folder`, { on_links: true }, { token: mum.access });
    assert.equal(folderYes.status, 200, JSON.stringify(folderYes.body));
    const yes = await uploadPhoto(t, mum, 'sent-yes.jpg', { parentId: folderYes.body.id, albumId: album.id });
    const folderNo = await t.client.post(`/albums/${album.id}/upload-folder`, undefined, { token: mum.access });
    assert.equal(folderNo.body.id, folderYes.body.id, 'the same folder');
    const no = await uploadPhoto(t, mum, 'sent-no.jpg', { parentId: folderNo.body.id, albumId: album.id });
    await t.server.mediaIdle();

    assert.equal((await albumItems(t, emma, album.id)).length, 2);
    assert.deepEqual(await linkIds(token), [yes]);
    await assertLinkHides(token, no);
  });

  test('a video a contributor kept off the link: no playback, no copy, no poster for the visitor', async () => {
    const emma = await person();
    const mum = await person();
    const album = await makeAlbum(t, emma, 'Videos');
    await invite(t, emma, album.id, mum, 'contributor');
    const clip = await uploadFile(t.api, mum.access, await mediaFixture('clip.mp4'), { filename: 'clip.mp4' });
    await t.server.mediaIdle();
    await addToAlbum(t, mum, album.id, [clip]);
    const token = await makeLink(emma, album.id);
    await assertLinkHides(token, clip);
  });

  test('bad input: on_links that is not a boolean is 400 invalid_input on on_links', async () => {
    const emma = await person();
    const photo = await uploadPhoto(t, emma, 'p.jpg');
    const album = await makeAlbum(t, emma, 'Typed');
    assertError(
      await t.client.post(`/albums/${album.id}/items`, { node_ids: [photo], on_links: 'yes' }, { token: emma.access }),
      400,
      'invalid_input',
      'on_links',
    );
    assertError(
      await t.client.post(`/albums/${album.id}/upload-folder`, { on_links: 1 }, { token: emma.access }),
      400,
      'invalid_input',
      'on_links',
    );
  });
});
