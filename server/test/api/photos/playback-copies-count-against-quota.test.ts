// A playback copy counts against the quota of the account whose video it is, as the video does:
// an account without room for a copy gets none (the video says over_quota, its original still
// downloads), and the copy is made once there is room. A member at quota once had a 6.7 MB copy
// made of a 566 KB upload, charged to no one.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { mediaFixture } from '../../helpers/fixtures.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;
let members = 0;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
});
after(() => t.close());

async function used(who: SignedIn): Promise<number> {
  const me = await t.client.get('/me', { token: who.access });
  assert.equal(me.status, 200);
  return me.body.quota.used as number;
}

async function copyOf(who: SignedIn, id: string): Promise<{ state: string; size: number | null }> {
  const res = await t.client.get(`/nodes/${id}/playback`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.copy;
}

async function setQuota(who: SignedIn, quota: number | null): Promise<void> {
  const res = await t.client.patch(`/admin/users/${who.userId}`, { quota_bytes: quota }, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
}

/** An iPhone's HEVC video, which browsers other than Safari need a copy of; processed, copy and all. */
async function uploadIphoneVideo(who: SignedIn): Promise<{ id: string; size: number }> {
  const video = await mediaFixture('iphone-hevc-sound.mov');
  const id = await uploadFile(t.api, who.access, video, { filename: 'IMG_0001.MOV' });
  await t.server.mediaIdle();
  await t.server.playbackIdle();
  return { id, size: video.length };
}

test("a copy is charged to the video's owner: its usage grows by the copy's size, and shrinks again when the video is deleted for good", async () => {
  const member = await createMember(t.client, owner, `filmer${++members}`);
  const before = await used(member);
  const { id, size } = await uploadIphoneVideo(member);
  const copy = await copyOf(member, id);
  assert.equal(copy.state, 'ready');
  assert.ok(copy.size! > 0);
  assert.equal(await used(member), before + size + copy.size!);
  // The admin's list of accounts says the same.
  const listed = await t.client.get('/admin/users', { token: owner.access });
  assert.equal(listed.body.items.find((u: { id: string }) => u.id === member.userId).quota.used, before + size + copy.size!);

  assert.equal((await t.client.delete(`/nodes/${id}`, { token: member.access })).status, 200);
  assert.equal((await t.client.delete(`/nodes/${id}/permanent`, { token: member.access })).status, 204);
  assert.equal(await used(member), before);
});

test('an account at its quota gets no copy: the video says over_quota, the original downloads, and the copy is made once there is room', async () => {
  const member = await createMember(t.client, owner, `filmer${++members}`);
  const video = await mediaFixture('iphone-hevc-sound.mov');
  // Room for the video and not a byte more.
  await setQuota(member, (await used(member)) + video.length);
  const { id } = await uploadIphoneVideo(member);

  assert.equal((await copyOf(member, id)).state, 'over_quota');
  assert.ok((await used(member)) <= video.length, 'no copy is charged beyond the quota');
  assertError(await t.client.get(`/nodes/${id}/download?copy=playback`, { token: member.access }), 404, 'playback_copy_not_ready');
  const original = await fetch(`${t.api}/nodes/${id}/download`, { headers: { authorization: `Bearer ${member.access}` } });
  assert.equal(original.status, 200);
  assert.ok(Buffer.from(await original.arrayBuffer()).equals(video));
  const queue = await t.client.get('/admin/playback-copies', { token: owner.access });
  assert.equal(queue.body.paused, 'quota');

  await setQuota(member, null);
  await t.server.playbackIdle();
  const copy = await copyOf(member, id);
  assert.equal(copy.state, 'ready');
  assert.equal(await used(member), video.length + copy.size!);
});

test('a copy bigger than the room left is stopped where the room ends and not kept; the video waits until it fits', async () => {
  const member = await createMember(t.client, owner, `filmer${++members}`);
  const video = await mediaFixture('iphone-hevc-sound.mov');
  // Room for the video and a sliver: ffmpeg runs, and stops at the sliver.
  const sliver = 2_000;
  await setQuota(member, (await used(member)) + video.length + sliver);
  const { id } = await uploadIphoneVideo(member);

  assert.equal((await copyOf(member, id)).state, 'over_quota');
  assert.equal(await used(member), video.length, 'nothing of the copy kept, nothing charged');

  // More room, but less than the try already took: it still waits (no ffmpeg run in a loop).
  await setQuota(member, video.length + sliver + 1_000);
  await t.server.playbackIdle();
  assert.equal((await copyOf(member, id)).state, 'over_quota');

  await setQuota(member, video.length + 10 * 1024 ** 2);
  await t.server.playbackIdle();
  const copy = await copyOf(member, id);
  assert.equal(copy.state, 'ready');
  assert.ok(copy.size! > sliver);
  assert.equal(await used(member), video.length + copy.size!);
});

test('an upload is refused when the copies of the account’s videos took its room', async () => {
  const member = await createMember(t.client, owner, `filmer${++members}`);
  const { size } = await uploadIphoneVideo(member);
  const charged = await used(member);
  assert.ok(charged > size, 'the copy counts');
  // A quota that the video alone fits in, with its copy it is full.
  await setQuota(member, charged);
  await assert.rejects(uploadFile(t.api, member.access, Buffer.alloc(100, 1), { filename: 'note.txt' }), /507|quota/i);
});
