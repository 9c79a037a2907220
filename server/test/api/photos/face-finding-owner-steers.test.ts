/**
 * The owner sees and steers face finding (GET/PATCH /admin/faces): how far it has got and how
 * fast, a pause that really stops the worker (and is kept across a restart), and a speed that
 * really decides the rest after each photo. Members and strangers get nothing of it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { createMember, login, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const FACES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/faces');

let t: TestServer;
let owner: SignedIn;
let member: SignedIn;
let photos: string[];
let uploaded = 0;

async function finding(): Promise<any> {
  const res = await t.client.get('/admin/faces', { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

async function change(body: unknown): Promise<any> {
  const res = await t.client.patch('/admin/faces', body, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

/** Uploads the next `n` fixture photos as the owner and waits for their thumbnails (what the finder waits for). */
async function upload(n: number): Promise<void> {
  for (const name of photos.slice(uploaded, uploaded + n)) {
    await uploadFile(t.api, owner.access, await fs.readFile(path.join(FACES, name)), { filename: `${uploaded}-${name}` });
    uploaded += 1;
  }
  await t.server.mediaIdle();
}

/** The face worker processes this test's server has (it runs in this process): none while paused. */
function faceWorkers(): string[] {
  if (process.platform !== 'linux') return [];
  const out = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes('face-worker'));
}

async function noFaceWorkerWithin(ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (faceWorkers().length > 0 && Date.now() < until) await delay(50);
  assert.deepEqual(faceWorkers(), [], 'no face worker runs while paused');
}

before(async () => {
  t = await startTestServer({ findFaces: true });
  owner = await setupOwner(t.client);
  member = await createMember(t.client, owner, 'member');
  photos = (await fs.readdir(FACES)).filter((f) => f.endsWith('.jpg')).sort();
});
after(() => t.close());

describe('who may see and steer face finding', () => {
  test('a member gets 403, no token 401, for reading and for changing it', async () => {
    assertError(await t.client.get('/admin/faces', { token: member.access }), 403, 'forbidden');
    assertError(await t.client.patch('/admin/faces', { paused: true }, { token: member.access }), 403, 'forbidden');
    assertError(await t.client.get('/admin/faces'), 401, 'unauthorized');
    assertError(await t.client.patch('/admin/faces', { paused: true }), 401, 'unauthorized');
    assert.equal((await finding()).paused, false, "the member's pause did nothing");
  });

  test('a speed it does not know, or a pause that is not true or false, is refused in the error envelope', async () => {
    assertError(await t.client.patch('/admin/faces', { speed: 'turbo' }, { token: owner.access }), 400, 'invalid_input', 'speed');
    assertError(await t.client.patch('/admin/faces', { paused: 'yes' }, { token: owner.access }), 400, 'invalid_input', 'paused');
    assert.equal((await finding()).speed, 'normal');
  });

  test('at first it is on, at the normal speed, with nothing to look at', async () => {
    assert.deepEqual(await finding(), {
      available: true,
      paused: false,
      speed: 'normal',
      state: 'done',
      total: 0,
      done: 0,
      waiting: 0,
      photos_per_minute: null,
      seconds_left: null,
      last_photo: null,
    });
  });
});

describe('the pause', () => {
  test('paused, photos wait and no worker runs; resumed, every one is looked at', async () => {
    const paused = await change({ paused: true });
    assert.equal(paused.state, 'paused');
    await upload(2);
    await t.server.facesIdle();
    await delay(500);
    const waiting = await finding();
    assert.deepEqual([waiting.state, waiting.done, waiting.waiting, waiting.total], ['paused', 0, 2, 2]);
    await noFaceWorkerWithin(0);
    await change({ paused: false });
    await t.server.facesIdle();
    const done = await finding();
    assert.deepEqual([done.state, done.done, done.waiting], ['done', 2, 0]);
  });

  test('a pause in the middle stops the worker with its photo, and resuming goes on from there', async () => {
    await change({ speed: 'fast' });
    await upload(4);
    const before = (await finding()).done;
    while ((await finding()).done === before) await delay(50);
    const paused = await change({ paused: true });
    assert.ok(paused.done > before && paused.done < uploaded, `stopped part way: ${paused.done} of ${uploaded}`);
    await noFaceWorkerWithin(2_000);
    await delay(1_000);
    assert.equal((await finding()).done, paused.done, 'nothing more was looked at while paused');
    await change({ paused: false });
    await t.server.facesIdle();
    const done = await finding();
    assert.deepEqual([done.state, done.done, done.total], ['done', uploaded, uploaded]);
  });
});

describe('how much of the computer it may use', () => {
  for (const [speed, times] of [
    ['gentle', 3],
    ['normal', 1],
    ['fast', 0],
  ] as const) {
    test(`${speed}: after each photo it rests ${times}x the CPU time the photo took`, async () => {
      assert.equal((await change({ speed })).speed, speed);
      await upload(1);
      await t.server.facesIdle();
      const { last_photo: last, done, total } = await finding();
      assert.equal(done, total);
      assert.ok(last.work_ms > 0, JSON.stringify(last));
      // work_ms is rounded to the millisecond, the rest is decided from the exact figure.
      assert.ok(Math.abs(last.rest_ms - times * last.work_ms) <= times, JSON.stringify(last));
    });
  }

  test('the speed is measured while photos wait, and says how long is left', async () => {
    await change({ speed: 'fast' });
    await upload(3);
    let seen: any = null;
    while (!seen) {
      const now = await finding();
      if (now.state !== 'finding') break;
      if (now.photos_per_minute !== null) seen = now;
      else await delay(50);
    }
    if (seen) {
      assert.ok(seen.photos_per_minute > 0);
      assert.equal(seen.seconds_left, Math.round((seen.waiting / seen.photos_per_minute) * 60));
    }
    await t.server.facesIdle();
    const done = await finding();
    assert.deepEqual([done.state, done.photos_per_minute, done.seconds_left], ['done', null, null]);
  });
});

describe('kept across a restart', () => {
  test('paused at gentle stays paused at gentle, and a waiting photo is not looked at', async () => {
    await change({ paused: true, speed: 'gentle' });
    await upload(1);
    await t.server.close();
    t = await startTestServer({ dataDir: t.dataDir, findFaces: true });
    owner = await login(t.client, owner.username, owner.password);
    await t.server.mediaIdle();
    await t.server.facesIdle();
    await delay(500);
    const after = await finding();
    assert.deepEqual([after.paused, after.speed, after.state, after.waiting], [true, 'gentle', 'paused', 1]);
    await noFaceWorkerWithin(0);
  });
});
