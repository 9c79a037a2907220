/**
 * Every message the page sends to main is checked: it must come from the server's own page in
 * the main frame, and carry exactly what the call takes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { IPC, registerIpc, sameOrigin } from '../ipc.ts';

const ORIGIN = 'http://127.0.0.1:8420';

function setup() {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown>();
  const ipcMain = { handle: (channel: string, fn: never) => handlers.set(channel, fn) } as unknown as IpcMain;
  const copied: string[] = [];
  const setups: unknown[] = [];
  const restores: [string, unknown][] = [];
  let sessions = 0;
  registerIpc(ipcMain, () => ORIGIN, {
    localSession: async () => ++sessions,
    copyText: (text) => void copied.push(text),
    setup: async (input) => {
      setups.push(input);
      return { ok: true };
    },
    restoreSnapshots: async (input) => {
      restores.push(['snapshots', input]);
      return { ok: true };
    },
    restore: async (input) => {
      restores.push(['restore', input]);
      return { ok: true };
    },
  });
  const mainFrame = { url: `${ORIGIN}/console` };
  const from = (frame: { url: string } | null, main = mainFrame) =>
    ({ senderFrame: frame, sender: { mainFrame: main } }) as unknown as IpcMainInvokeEvent;
  const invoke = (channel: string, event: IpcMainInvokeEvent, ...args: unknown[]) => handlers.get(channel)!(event, ...args);
  return { handlers, copied, setups, restores, mainFrame, from, invoke, sessions: () => sessions };
}

test('only the five named channels exist', () => {
  assert.deepEqual(
    [...setup().handlers.keys()].sort(),
    [IPC.copyText, IPC.localSession, IPC.setup, IPC.restoreSnapshots, IPC.restore].sort(),
  );
});

test("a fresh install's restore takes one object, a folder {kind: 'folder', path} or a bucket {kind: 's3', endpoint, bucket, keys…}, with key? and snapshot_id? (strings) and accept_unsigned? (a boolean), from the server page only", async () => {
  const s = setup();
  await s.invoke(IPC.restoreSnapshots, s.from(s.mainFrame), { kind: 'folder', path: '/media/usb/backups', extra: 1 });
  await s.invoke(IPC.restore, s.from(s.mainFrame), {
    kind: 'folder',
    path: '/media/usb/backups',
    key: 'AGE-SECRET-KEY-1X',
    snapshot_id: 's1',
    accept_unsigned: true,
  });
  const bucket = {
    kind: 's3',
    endpoint: 'https://s3.example.com',
    bucket: 'family',
    prefix: 'hearth',
    access_key_id: 'AKID',
    secret_access_key: 'secret',
    key: 'AGE-SECRET-KEY-1X',
  };
  await s.invoke(IPC.restoreSnapshots, s.from(s.mainFrame), { ...bucket, extra: 1 });
  assert.deepEqual(s.restores, [
    ['snapshots', { kind: 'folder', path: '/media/usb/backups' }],
    ['restore', { kind: 'folder', path: '/media/usb/backups', key: 'AGE-SECRET-KEY-1X', snapshot_id: 's1', accept_unsigned: true }],
    ['snapshots', bucket],
  ]);
  for (const channel of [IPC.restoreSnapshots, IPC.restore]) {
    for (const bad of [
      [],
      [null],
      ['/media/usb'],
      [{ path: '/media/usb' }],
      [{ kind: 's3', path: '/media/usb' }],
      [{ kind: 's3', endpoint: 'https://s3.example.com', bucket: 'family', access_key_id: 'AKID' }],
      [{ kind: 's3', endpoint: 'https://s3.example.com', bucket: 'family', access_key_id: 'AKID', secret_access_key: 5 }],
      [{ kind: 'ftp', path: '/x' }],
      [{ kind: 'folder', path: 5 }],
      [{ kind: 'folder', path: '/x', key: {} }],
      [{ kind: 'folder', path: '/x', snapshot_id: 'x'.repeat(101) }],
      [{ kind: 'folder', path: '/x', accept_unsigned: 'yes' }],
      [{ kind: 'folder', path: 'x'.repeat(4097) }],
      [{ kind: 'folder', path: '/x' }, 'extra'],
    ]) {
      assert.throws(() => s.invoke(channel, s.from(s.mainFrame), ...bad), /restore takes one object/, JSON.stringify(bad));
    }
    const elsewhere = { url: 'http://evil.example/' };
    assert.throws(() => s.invoke(channel, s.from(elsewhere, elsewhere), { kind: 'folder', path: '/x' }), /not the server's page/);
    const iframe = { url: `${ORIGIN}/framed` };
    assert.throws(() => s.invoke(channel, s.from(iframe), { kind: 'folder', path: '/x' }), /not the server's page/);
  }
  assert.equal(s.restores.length, 3, 'nothing refused reached the server');
});

test('first-run setup takes one object of strings {username, password, server_name?}, from the server page only', async () => {
  const s = setup();
  assert.deepEqual(
    await s.invoke(IPC.setup, s.from(s.mainFrame), { username: 'dad', password: 'our family photos 1', server_name: 'Home', extra: 1 }),
    { ok: true },
  );
  await s.invoke(IPC.setup, s.from(s.mainFrame), { username: 'mum', password: 'another password 1' });
  assert.deepEqual(
    s.setups,
    [
      { username: 'dad', password: 'our family photos 1', server_name: 'Home' },
      { username: 'mum', password: 'another password 1' },
    ],
    'only the three fields travel on',
  );
  for (const bad of [
    [],
    [null],
    ['dad'],
    [[]],
    [{ username: 'dad' }],
    [{ username: 1, password: 'x' }],
    [{ username: 'dad', password: 'x', server_name: 5 }],
    [{ username: 'dad', password: 'x'.repeat(1025) }],
    [{ username: 'dad', password: 'x' }, 'extra'],
  ]) {
    assert.throws(() => s.invoke(IPC.setup, s.from(s.mainFrame), ...bad), /setup takes one object/, JSON.stringify(bad));
  }
  const elsewhere = { url: 'http://evil.example/' };
  assert.throws(() => s.invoke(IPC.setup, s.from(elsewhere, elsewhere), { username: 'x', password: 'y' }), /not the server's page/);
  const iframe = { url: `${ORIGIN}/framed` };
  assert.throws(() => s.invoke(IPC.setup, s.from(iframe), { username: 'x', password: 'y' }), /not the server's page/);
  assert.equal(s.setups.length, 2);
});

test("the owner's session goes only to the server's own page in the main frame", async () => {
  const s = setup();
  assert.equal(await s.invoke(IPC.localSession, s.from(s.mainFrame)), 1);
  const elsewhere = { url: 'http://evil.example/' };
  assert.throws(() => s.invoke(IPC.localSession, s.from(elsewhere, elsewhere)), /not the server's page/);
  const otherPort = { url: 'http://127.0.0.1:9999/' };
  assert.throws(() => s.invoke(IPC.localSession, s.from(otherPort, otherPort)), /not the server's page/);
  const iframe = { url: `${ORIGIN}/framed` };
  assert.throws(
    () => s.invoke(IPC.localSession, s.from(iframe)),
    /not the server's page/,
    'a subframe, even of the same origin, is refused',
  );
  assert.throws(() => s.invoke(IPC.localSession, s.from(null)), /not the server's page/, 'a frame already gone is refused');
  assert.throws(() => s.invoke(IPC.localSession, s.from(s.mainFrame), 'extra'), /no arguments/);
  assert.equal(s.sessions(), 1);
});

test('copyText takes one non-empty string of up to 2048 characters, from the server page only', () => {
  const s = setup();
  s.invoke(IPC.copyText, s.from(s.mainFrame), 'http://192.168.1.20:8420/');
  for (const bad of [[], [''], [42], [{ toString: () => 'x' }], ['a', 'b'], ['x'.repeat(2049)]]) {
    assert.throws(() => s.invoke(IPC.copyText, s.from(s.mainFrame), ...bad), /copyText takes one string/);
  }
  const elsewhere = { url: 'file:///etc/passwd' };
  assert.throws(() => s.invoke(IPC.copyText, s.from(elsewhere, elsewhere), 'x'), /not the server's page/);
  assert.deepEqual(s.copied, ['http://192.168.1.20:8420/']);
});

test('same origin means scheme, host and port, and a malformed URL is never the same origin', () => {
  assert.equal(sameOrigin(`${ORIGIN}/a?b#c`, ORIGIN), true);
  assert.equal(sameOrigin('https://127.0.0.1:8420/', ORIGIN), false);
  assert.equal(sameOrigin('http://localhost:8420/', ORIGIN), false);
  assert.equal(sameOrigin('not a url', ORIGIN), false);
  assert.equal(sameOrigin('javascript:alert(1)', ORIGIN), false);
});
