import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { invite, makeAlbum, uploadPhoto } from '../../helpers/albums.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

// Every way a photo reaches the family timeline (Everyone's) shows it there, counted in its
// month and listed once, whether the photo sits at its owner's top level or deep in a folder,
// and whether or not some other folder is shared with the account too (that list of folders
// once hid every top-level photo that came another way).

let t: TestServer;
let admin: SignedIn;
let accounts = 0;

before(async () => {
  t = await startTestServer();
  admin = await setupOwner(t.client);
});
after(() => t.close());

function person(): Promise<SignedIn> {
  return createMember(t.client, admin, `waysin${++accounts}`);
}

async function ok(who: SignedIn, method: string, route: string, body?: unknown): Promise<any> {
  const res = await t.client.request(method, route, { token: who.access, ...(body !== undefined && { body }) });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function months(who: SignedIn): Promise<{ month: string; photos: number; videos: number }[]> {
  return (await ok(who, 'GET', '/nodes/gallery/months?scope=family')).items;
}

/** Every name of the family timeline, month by month as a phone lists it. */
async function timeline(who: SignedIn): Promise<string[]> {
  const names: string[] = [];
  for (const { month } of await months(who)) {
    const page = await ok(who, 'GET', `/nodes?filter=gallery&scope=family&month=${month}&limit=1000`);
    names.push(...page.items.map((item: { name: string }) => item.name));
  }
  return names;
}

/** The folders of `owner` a photo goes into: none (their top level), or two deep. */
async function placeFor(owner: SignedIn, nested: boolean): Promise<string | undefined> {
  if (!nested) return undefined;
  const outer = await createFolder(t.client, owner, 'Outer');
  return (await createFolder(t.client, owner, 'Inner', outer.id)).id;
}

interface Way {
  name: string;
  /** Makes the photo `shown.jpg` (taken in May 2023) reach `viewer`; anything it makes that must not show is named `hidden-*`. */
  arrange(viewer: SignedIn, owner: SignedIn): Promise<void>;
}

const MAY = '2023:05:10 10:00:00';

const WAYS: Way[] = [
  {
    name: 'her own photo',
    arrange: async (viewer) => {
      await uploadPhoto(t, viewer, 'shown.jpg', { when: MAY });
    },
  },
  ...[false, true].map((nested): Way => ({
    name: `a folder granted to her, ${nested ? 'itself deep in its owner’s folders, the photo a folder below it' : 'at its owner’s top level, the photo in it'}`,
    arrange: async (viewer, owner) => {
      const granted = await createFolder(t.client, owner, 'Granted', await placeFor(owner, nested));
      const holder = nested ? (await createFolder(t.client, owner, 'Below', granted.id)).id : granted.id;
      await uploadPhoto(t, owner, 'shown.jpg', { when: MAY, parentId: holder });
      await ok(owner, 'POST', `/nodes/${granted.id}/permissions`, { user_id: viewer.userId, role: 'viewer' });
    },
  })),
  ...[false, true].map((nested): Way => ({
    name: `the photo granted to her on its own, ${nested ? 'deep in its owner’s folders' : 'at its owner’s top level'}`,
    arrange: async (viewer, owner) => {
      const photo = await uploadPhoto(t, owner, 'shown.jpg', { when: MAY, ...optionalParent(await placeFor(owner, nested)) });
      await ok(owner, 'POST', `/nodes/${photo}/permissions`, { user_id: viewer.userId, role: 'viewer' });
    },
  })),
  ...[false, true].map((nested): Way => ({
    name: `an album she is in, the photo ${nested ? 'deep in its owner’s folders' : 'at its owner’s top level'}`,
    arrange: async (viewer, owner) => {
      const photo = await uploadPhoto(t, owner, 'shown.jpg', { when: MAY, ...optionalParent(await placeFor(owner, nested)) });
      const album = await makeAlbum(t, owner, 'Ours', [photo]);
      await invite(t, owner, album.id, viewer, 'viewer');
    },
  })),
  ...[false, true].map((nested): Way => ({
    name: `a partner share of every photo, the photo ${nested ? 'deep in its owner’s folders' : 'at its owner’s top level'}`,
    arrange: async (viewer, owner) => {
      await uploadPhoto(t, owner, 'shown.jpg', { when: MAY, ...optionalParent(await placeFor(owner, nested)) });
      await ok(owner, 'POST', '/partner-shares', { user_id: viewer.userId });
    },
  })),
  {
    name: 'a partner share from a day on (what was taken before it stays out)',
    arrange: async (viewer, owner) => {
      await uploadPhoto(t, owner, 'shown.jpg', { when: MAY });
      await uploadPhoto(t, owner, 'hidden-before.jpg', { when: '2022:12:31 23:00:00' });
      await ok(owner, 'POST', '/partner-shares', { user_id: viewer.userId, since: '2023-01-01' });
    },
  },
];

function optionalParent(parentId: string | undefined): { parentId?: string } {
  return parentId === undefined ? {} : { parentId };
}

describe('the family timeline shows a photo however it arrives', () => {
  for (const way of WAYS) {
    for (const otherFolder of [false, true]) {
      test(`${way.name}; ${otherFolder ? 'with' : 'without'} another folder shared with her`, async () => {
        const [viewer, owner, cousin] = [await person(), await person(), await person()];
        await way.arrange(viewer, owner);
        // Someone's private photo, at their top level, never hers to see.
        await uploadPhoto(t, cousin, 'hidden-private.jpg', { when: MAY });
        if (otherFolder) {
          const recipes = await createFolder(t.client, cousin, 'Recipes');
          await uploadPhoto(t, cousin, 'recipes-2021.jpg', { when: '2021:03:03 03:00:00', parentId: recipes.id });
          await ok(cousin, 'POST', `/nodes/${recipes.id}/permissions`, { user_id: viewer.userId, role: 'viewer' });
        }
        await t.server.mediaIdle();
        const expected = otherFolder ? ['shown.jpg', 'recipes-2021.jpg'] : ['shown.jpg'];
        assert.deepEqual(await timeline(viewer), expected);
        assert.deepEqual(await months(viewer), [
          { month: '2023-05', photos: 1, videos: 0 },
          ...(otherFolder ? [{ month: '2021-03', photos: 1, videos: 0 }] : []),
        ]);
        // A page without a month merges the same, each photo once.
        const flat = await ok(viewer, 'GET', '/nodes?filter=gallery&scope=family&limit=1000');
        assert.deepEqual(
          flat.items.map((item: { name: string }) => item.name),
          expected,
        );
      });
    }
  }
});
