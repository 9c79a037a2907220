import assert from 'node:assert/strict';
import sharp from 'sharp';
import type { SignedIn } from './accounts.ts';
import type { TestServer } from './server.ts';
import { uploadFile } from './upload.ts';

let shade = 0;

/** A small JPEG, each one different; taken at `when` ("YYYY:MM:DD hh:mm:ss", EXIF DateTimeOriginal) when given. */
export async function jpeg(when: string | null = null): Promise<Buffer> {
  shade += 1;
  const image = sharp({
    create: { width: 24, height: 16, channels: 3, background: { r: (shade * 41) % 256, g: (shade * 7) % 256, b: 160 } },
  }).jpeg();
  return (when === null ? image : image.withExif({ IFD0: { Make: 'Hearth test' }, IFD2: { DateTimeOriginal: when } })).toBuffer();
}

/** Uploads a photo of `who`'s and returns its node id. */
export async function uploadPhoto(
  t: TestServer,
  who: SignedIn,
  name: string,
  options: { when?: string | null; parentId?: string; albumId?: string } = {},
): Promise<string> {
  return uploadFile(t.api, who.access, await jpeg(options.when ?? null), {
    filename: name,
    ...(options.parentId !== undefined && { parentId: options.parentId }),
    ...(options.albumId !== undefined && { metadata: { album_id: options.albumId } }),
  });
}

/** POST /albums, 201 expected. */
export async function makeAlbum(t: TestServer, who: SignedIn, name: string, nodeIds?: string[]): Promise<any> {
  const res = await t.client.post('/albums', { name, ...(nodeIds && { node_ids: nodeIds }) }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

export async function addToAlbum(t: TestServer, who: SignedIn, albumId: string, nodeIds: string[]): Promise<any> {
  const res = await t.client.post(`/albums/${albumId}/items`, { node_ids: nodeIds }, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}

export async function invite(t: TestServer, owner: SignedIn, albumId: string, who: SignedIn, role: 'viewer' | 'contributor'): Promise<any> {
  const res = await t.client.post(`/albums/${albumId}/members`, { user_id: who.userId, role }, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Every item the album shows to `who`, following next_cursor. */
export async function albumItems(t: TestServer, who: SignedIn, albumId: string, limit = 1000): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const res: any = await t.client.get(`/albums/${albumId}/items?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, {
      token: who.access,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    items.push(...res.body.items);
    cursor = res.body.next_cursor;
  } while (cursor !== null);
  return items;
}

export async function albumOf(t: TestServer, who: SignedIn, albumId: string): Promise<any> {
  const res = await t.client.get(`/albums/${albumId}`, { token: who.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body;
}
