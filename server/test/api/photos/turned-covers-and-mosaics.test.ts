import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { makeAlbum } from '../../helpers/albums.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

// A photo the family turned shows turned wherever a thumbnail of it shows: its album's cover
// names the turn (a new URL for it, the thumbnail served turned) and a folder's mosaic draws it turned.

let t: TestServer;
let mum: SignedIn;

const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 30, b: 220 };

/** A landscape photo, red on its left half and blue on its right: which way up it is shows in its pixels. */
async function redLeftBlueRight(): Promise<Buffer> {
  const blue = await sharp({ create: { width: 400, height: 400, channels: 3, background: BLUE } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 800, height: 400, channels: 3, background: RED } })
    .composite([{ input: blue, left: 400, top: 0 }])
    .jpeg({ quality: 95 })
    .toBuffer();
}

async function raw(path: string, accept = '*/*') {
  const res = await fetch(`${t.api}${path}`, { headers: { authorization: `Bearer ${mum.access}`, accept } });
  assert.equal(res.status, 200, path);
  return Buffer.from(await res.arrayBuffer());
}

/** 'red' or 'blue' at a point of an image. */
async function colourAt(image: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  const [r, , b] = [data[at]!, data[at + 1]!, data[at + 2]!];
  return r > 150 && b < 100 ? 'red' : b > 150 && r < 100 ? 'blue' : `rgb(${r},${data[at + 1]},${b})`;
}

before(async () => {
  t = await startTestServer();
  const admin = await setupOwner(t.client);
  mum = await createMember(t.client, admin, 'mum');
});
after(() => t.close());

describe('a turned photo in covers and mosaics', () => {
  test("a folder's mosaic and an album's cover show the photo as the family turned it", async () => {
    const folder = await createFolder(t.client, mum, 'Trip');
    const id = await uploadFile(t.api, mum.access, await redLeftBlueRight(), { filename: 'flag.jpg', parentId: folder.id });
    await t.server.mediaIdle();
    const album = await makeAlbum(t, mum, 'Summer', [id]);
    assert.equal(album.cover?.rotation, undefined);

    // Before the turn: red on the left of the mosaic's first tile, blue on its right.
    const before = await raw(`/nodes/${folder.id}/preview`, 'image/webp');
    assert.deepEqual([await colourAt(before, 40, 128), await colourAt(before, 216, 128)], ['red', 'blue']);

    const turned = await t.client.patch(`/photos/${id}/edits`, { rotation: 90 }, { token: mum.access });
    assert.equal(turned.status, 200, JSON.stringify(turned.body));

    // A quarter turn clockwise: the left (red) is now on top, the right (blue) below.
    const mosaic = await raw(`/nodes/${folder.id}/preview`, 'image/webp');
    assert.deepEqual([await colourAt(mosaic, 128, 40), await colourAt(mosaic, 128, 216)], ['red', 'blue']);
    const listed = await t.client.get(`/nodes/${folder.id}/preview`, { token: mum.access });
    assert.match(listed.body.items[0].thumbnail_url, /[?&]r=90(&|$)/);

    const albums = await t.client.get('/albums', { token: mum.access });
    const cover = albums.body.items.find((a: any) => a.id === album.id).cover;
    assert.deepEqual(cover, { id, version: 1, has_thumbnail: true, rotation: 90 });
    const thumb = await raw(`/nodes/${cover.id}/thumbnail?v=${cover.version}&r=${cover.rotation}`);
    const meta = await sharp(thumb).metadata();
    assert.ok(meta.height! > meta.width!, `a portrait cover, got ${meta.width}x${meta.height}`);
    assert.equal(await colourAt(thumb, Math.floor(meta.width! / 2), 10), 'red');
    assert.equal(await colourAt(thumb, Math.floor(meta.width! / 2), meta.height! - 10), 'blue');
  });
});
