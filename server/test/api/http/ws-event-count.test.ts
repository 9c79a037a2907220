import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { EventSocket } from '../../helpers/events.ts';
import { createFolder, unique } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

/**
 * What lets a page know it missed an event between its first answers and its socket's open
 * (docs/api.md, Live events): reads carry the account's event count, and a socket that asks is
 * told the count it starts from.
 */
describe('event counts on answers and on the socket', () => {
  let t: TestServer;
  let owner: SignedIn;
  let kid: SignedIn;

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    kid = await createMember(t.client, owner, 'kid');
  });
  after(() => t.close());

  const countOf = async (who: SignedIn): Promise<{ start: string; n: number }> => {
    const res = await t.client.get('/nodes?parent_id=root', { token: who.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const match = /^([0-9a-f]{8})\.(\d+)$/.exec(res.headers.get('hearth-event-count') ?? '');
    assert.ok(match, `Hearth-Event-Count: ${res.headers.get('hearth-event-count')}`);
    return { start: match[1]!, n: Number(match[2]) };
  };

  test("a read's count grows with the events sent to its account, and only those", async () => {
    const first = await countOf(kid);
    const ownersFirst = await countOf(owner);
    assert.equal(first.start, ownersFirst.start, 'one start of the server, one start in every count');
    await createFolder(t.client, kid, unique('Holiday'));
    const afterOwn = await countOf(kid);
    assert.ok(afterOwn.n > first.n, `the kid's folder was told to the kid: ${first.n} then ${afterOwn.n}`);
    assert.equal((await countOf(owner)).n, ownersFirst.n, "the kid's folder was not told to the owner");
    // Told to every account: both counts move.
    const settings = await t.client.patch('/server/settings', { server_name: unique('Home') }, { token: owner.access });
    assert.equal(settings.status, 200, JSON.stringify(settings.body));
    assert.ok((await countOf(kid)).n > afterOwn.n);
    assert.ok((await countOf(owner)).n > ownersFirst.n);
  });

  test('a write is not counted (its answer is never on screen as a view), nor an unsigned read', async () => {
    const made = await t.client.post('/nodes/folder', { name: unique('Made') }, { token: kid.access });
    assert.equal(made.status, 201);
    assert.equal(made.headers.get('hearth-event-count'), null);
    const status = await t.client.get('/status');
    assert.equal(status.status, 200);
    assert.equal(status.headers.get('hearth-event-count'), null);
  });

  test('a socket opened with event_count=1 is first told the count it hears from: a read counted lower missed an event it will never carry', async () => {
    const before = await countOf(kid);
    // Sent after the read and before the socket: the event the read missed.
    await createFolder(t.client, kid, unique('Between'));
    const socket = await EventSocket.connect(`${t.url.replace(/^http/, 'ws')}/api/v1/ws?event_count=1`, {
      headers: { authorization: `Bearer ${kid.access}` },
    });
    try {
      const opened = await socket.waitFor((m) => m.type === 'socket.opened');
      assert.equal(socket.pending()[0]?.type, 'socket.opened', 'the first message');
      const told = String(opened.payload.event_count);
      assert.equal(told, `${before.start}.${(await countOf(kid)).n}`, 'the count as a read made now has it');
      assert.ok(Number(told.split('.')[1]) > before.n, 'higher than the read made before the event');
      // From here every event comes on the socket, and the reads count it too.
      const folder = await createFolder(t.client, kid, unique('After'));
      const created = await socket.waitFor((m) => m.type === 'node.created' && m.payload.node.id === folder.id);
      // Each event on this socket carries the count with it counted: one more than the last heard, so a gap is a dropped one.
      const heard = socket.pending().slice(1);
      assert.deepEqual(
        heard.map((m) => (m as { event_count?: string }).event_count),
        heard.map((_, i) => `${before.start}.${Number(told.split('.')[1]) + i + 1}`),
      );
      const now = await countOf(kid);
      assert.equal((created as { event_count?: string }).event_count, `${now.start}.${now.n}`, 'as a read made after it counts');
    } finally {
      socket.close();
    }
  });

  test('a socket that does not ask is told nothing of counts (the contract’s messages as they were)', async () => {
    const socket = await EventSocket.open(t.url, kid.access);
    try {
      const folder = await createFolder(t.client, kid, unique('Plain'));
      await socket.waitFor((m) => m.type === 'node.created' && m.payload.node.id === folder.id);
      assert.deepEqual(
        socket.pending().map((m) => m.type),
        ['node.created'],
      );
      assert.equal((socket.pending()[0] as { event_count?: string }).event_count, undefined);
    } finally {
      socket.close();
    }
  });

  test('a restarted server counts from another start, so no count from before compares with one after', async () => {
    const other = await startTestServer();
    try {
      const otherOwner = await setupOwner(other.client);
      const res = await other.client.get('/nodes?parent_id=root', { token: otherOwner.access });
      const there = res.headers.get('hearth-event-count') ?? '';
      assert.notEqual(there.split('.')[0], (await countOf(owner)).start);
    } finally {
      await other.close();
    }
  });
});
