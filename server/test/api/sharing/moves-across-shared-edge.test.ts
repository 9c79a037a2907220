import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/* Issue 12, finding 9: a move tells each account only what it may see. */

let t: TestServer;
let owner: SignedIn;
let viewer: SignedIn;
let shared: any;
let hidden: any;

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  viewer = await createMember(t.client, owner, 'quinn');
  shared = await createFolder(t.client, owner, 'Family');
  hidden = await createFolder(t.client, owner, 'Private plans');
  const grant = await t.client.post(`/nodes/${shared.id}/permissions`, { user_id: viewer.userId, role: 'viewer' }, { token: owner.access });
  assert.equal(grant.status, 201, JSON.stringify(grant.body));
});
after(() => t.close());

/** Everything `socket` received, as one string: a leak anywhere in any message shows up here. */
async function settle(socket: EventSocket): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 150));
  return JSON.stringify(socket.pending());
}

describe('moves across the edge of a shared folder', () => {
  test('a file moved (and renamed) out of a shared folder reaches those who lost access only as node.deleted, without its new name or parent', async () => {
    const id = await uploadFile(t.api, owner.access, Buffer.from('draft'), { filename: 'draft.txt', parentId: shared.id });
    const watching = await EventSocket.open(t.url, viewer.access);
    const owning = await EventSocket.open(t.url, owner.access);
    try {
      const moved = await t.client.patch(`/nodes/${id}`, { parent_id: hidden.id, name: 'surprise party.txt' }, { token: owner.access });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));

      const gone = await watching.waitFor((m) => m.type === 'node.deleted');
      assert.equal(gone.payload.node.id, id);
      assert.equal(gone.payload.access_lost, true);
      assert.equal(gone.payload.permanent, false);
      const seen = await settle(watching);
      assert.ok(!seen.includes(hidden.id), `the new parent id leaked: ${seen}`);
      assert.ok(!seen.includes('surprise party'), `the new name leaked: ${seen}`);
      assert.ok(!watching.pending().some((m) => m.type === 'node.moved'), seen);

      // The owner, who still sees it, hears the move itself.
      const move = await owning.waitFor((m) => m.type === 'node.moved');
      assert.equal(move.payload.node.parent_id, hidden.id);
      assert.equal(move.payload.from_parent_id, shared.id);
    } finally {
      watching.close();
      owning.close();
    }
  });

  test('a folder moved out takes its contents with it: the viewer gets its disappearance only', async () => {
    const folder = await createFolder(t.client, owner, 'Gift ideas', shared.id);
    await uploadFile(t.api, owner.access, Buffer.from('list'), { filename: 'list.txt', parentId: folder.id });
    const watching = await EventSocket.open(t.url, viewer.access);
    try {
      assert.equal((await t.client.patch(`/nodes/${folder.id}`, { parent_id: hidden.id }, { token: owner.access })).status, 200);
      const gone = await watching.waitFor((m) => m.type === 'node.deleted');
      assert.equal(gone.payload.node.id, folder.id);
      const seen = await settle(watching);
      assert.ok(!seen.includes(hidden.id), seen);
    } finally {
      watching.close();
    }
  });

  test('a file moved into a shared folder appears for the viewer as node.created, without where it came from', async () => {
    const id = await uploadFile(t.api, owner.access, Buffer.from('photo'), { filename: 'beach.txt', parentId: hidden.id });
    const watching = await EventSocket.open(t.url, viewer.access);
    try {
      assert.equal((await t.client.patch(`/nodes/${id}`, { parent_id: shared.id }, { token: owner.access })).status, 200);
      const appeared = await watching.waitFor((m) => m.type === 'node.created');
      assert.equal(appeared.payload.node.id, id);
      assert.equal(appeared.payload.node.parent_id, shared.id);
      const seen = await settle(watching);
      assert.ok(!seen.includes(hidden.id), `the old parent id leaked: ${seen}`);
    } finally {
      watching.close();
    }
  });

  test('a move within the shared folder is still a node.moved for the viewer', async () => {
    const sub = await createFolder(t.client, owner, 'Sub', shared.id);
    const id = await uploadFile(t.api, owner.access, Buffer.from('x'), { filename: 'inside.txt', parentId: shared.id });
    const watching = await EventSocket.open(t.url, viewer.access);
    try {
      assert.equal((await t.client.patch(`/nodes/${id}`, { parent_id: sub.id }, { token: owner.access })).status, 200);
      const move = await watching.waitFor((m) => m.type === 'node.moved');
      assert.equal(move.payload.node.parent_id, sub.id);
      assert.equal(move.payload.from_parent_id, shared.id);
    } finally {
      watching.close();
    }
  });
});
