import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { uploadPhoto } from '../../helpers/albums.ts';
import { addFolderDestination, backUp, destinationFolder } from '../../helpers/backup.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// The owner of the PC browses everyone's files in a backup's snapshot to get one back: what a
// family member keeps in Private is not among them (nor is the owner's own).

let t: TestServer;
let owner: SignedIn;
let member: SignedIn;
let folder: string;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  member = await createMember(t.client, owner, 'teen');
  folder = destinationFolder();
});
after(async () => {
  await t.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

test("a snapshot's listing of a member's files, and of the node itself, leaves out what is in their Private folder", async () => {
  const diary = await uploadPhoto(t, member, 'diary.jpg');
  await uploadPhoto(t, member, 'school.jpg');
  const moved = await t.client.post(`/nodes/${diary}/private`, undefined, { token: member.access });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const privateId = moved.body.parent_id as string;
  const dest = await addFolderDestination(t.client, owner.access, folder);
  const run = await backUp(t.client, owner.access, dest.id);
  assert.equal(run.state, 'succeeded', JSON.stringify(run));
  const base = `/admin/backup/destinations/${dest.id}/snapshots/${run.snapshot_id}/nodes`;
  const top = await t.client.get(`${base}?user_id=${member.userId}`, { token: owner.access });
  assert.equal(top.status, 200, JSON.stringify(top.body));
  const names = top.body.items.map((n: any) => n.name);
  assert.ok(names.includes('school.jpg'), JSON.stringify(names));
  assert.ok(!names.includes('diary.jpg') && !names.includes('Private'), JSON.stringify(names));
  for (const parent of [privateId, diary]) {
    const inside = await t.client.get(`${base}?parent_id=${parent}`, { token: owner.access });
    assert.notEqual(inside.status, 200, `${parent}: ${JSON.stringify(inside.body)}`);
  }
});
