/**
 * Uploaded content never runs on the app's origin: a file goes out as plain bytes to save
 * (application/octet-stream, attachment), by its own URL and through a public link alike;
 * only pictures, sound, film and PDF asked for inline keep their type, under a sandbox CSP;
 * and no other site may embed any of it (Cross-Origin-Resource-Policy: same-origin).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

let t: TestServer;
let owner: SignedIn;

const SCRIPT = Buffer.from('window.__hearthRan = true;\n');
let scriptId: string;
let scriptLink: string;
let folderId: string;
let folderLink: string;
let photoId: string;

async function get(
  route: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const res = await fetch(t.api + route, { method, headers });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

async function urlToken(id: string): Promise<string> {
  const res = await t.client.post(`/nodes/${id}/access-token`, undefined, { token: owner.access });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return encodeURIComponent(res.body.access_token);
}

async function link(id: string): Promise<string> {
  const res = await t.client.post(`/nodes/${id}/share`, {}, { token: owner.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.token;
}

/** Every way a browser can fetch a node's bytes: by its URL (header or URL token) and through a link, plain and inline. */
async function everyDownloadOf(id: string, linkToken: string, nodeInLink?: string): Promise<[string, () => ReturnType<typeof get>][]> {
  const token = await urlToken(id);
  const inside = nodeInLink ? `node_id=${nodeInLink}&` : '';
  const bearer = { authorization: `Bearer ${owner.access}` };
  return [
    ['by header', () => get(`/nodes/${id}/download`, bearer)],
    ['by header, inline', () => get(`/nodes/${id}/download?inline=1`, bearer)],
    ['by URL token', () => get(`/nodes/${id}/download?access_token=${token}`)],
    ['by URL token, inline', () => get(`/nodes/${id}/download?inline=1&access_token=${token}`)],
    ['by URL token, a range', () => get(`/nodes/${id}/download?access_token=${token}`, { Range: 'bytes=0-3' })],
    ['by URL token, HEAD', () => get(`/nodes/${id}/download?inline=true&access_token=${token}`, {}, 'HEAD')],
    ['public link', () => get(`/s/${linkToken}/download?${inside}`)],
    ['public link, inline', () => get(`/s/${linkToken}/download?${inside}inline=1`)],
    ['public link, a range', () => get(`/s/${linkToken}/download?${inside}inline=1`, { Range: 'bytes=0-3' })],
  ];
}

before(async () => {
  t = await startTestServer();
  owner = await setupOwner(t.client);
  scriptId = await uploadFile(t.api, owner.access, SCRIPT, { filename: 'tracker.js', filetype: 'text/javascript' });
  scriptLink = await link(scriptId);
  const folder = await t.client.post('/nodes/folder', { name: 'Shared album' }, { token: owner.access });
  folderId = folder.body.id;
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#996633' } })
    .jpeg()
    .toBuffer();
  photoId = await uploadFile(t.api, owner.access, jpeg, { filename: 'photo.jpg', parentId: folderId });
  folderLink = await link(folderId);
  await t.server.mediaIdle();
});
after(() => t.close());

describe('a script is never served as a script', () => {
  test('the node keeps its real type (the app needs it), while every download of it is application/octet-stream, an attachment, under a sandbox CSP', async () => {
    const node = await t.client.get(`/nodes/${scriptId}`, { token: owner.access });
    assert.equal(node.body.mime_type, 'text/javascript');
    for (const [how, request] of await everyDownloadOf(scriptId, scriptLink)) {
      const got = await request();
      assert.ok(got.status === 200 || got.status === 206, `${how}: ${got.status}`);
      assert.equal(got.headers.get('content-type'), 'application/octet-stream', how);
      assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/, how);
      assert.equal(got.headers.get('x-content-type-options'), 'nosniff', how);
      assert.match(got.headers.get('content-security-policy') ?? '', /^sandbox;/, how);
      assert.match(got.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/, how);
    }
  });

  test("a script inside a shared folder, through the folder's link, is plain bytes too", async () => {
    const inner = await uploadFile(t.api, owner.access, SCRIPT, {
      filename: 'inner.mjs',
      filetype: 'application/javascript',
      parentId: folderId,
    });
    for (const [how, request] of await everyDownloadOf(inner, folderLink, inner)) {
      const got = await request();
      assert.ok(got.status === 200 || got.status === 206, `${how}: ${got.status}`);
      assert.equal(got.headers.get('content-type'), 'application/octet-stream', how);
    }
  });

  test('pages, markup and text are plain bytes to save as well, asked inline or not', async () => {
    const files: [string, string, string][] = [
      ['page.html', 'text/html', '<!doctype html><script>alert(1)</script>'],
      ['page.xhtml', 'application/xhtml+xml', '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>'],
      ['drawing.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
      ['feed.xml', 'image/foo+xml', '<x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script>'],
      ['style.css', 'text/css', 'body{}'],
      ['notes.txt', 'text/plain', 'hello'],
    ];
    for (const [filename, filetype, content] of files) {
      const id = await uploadFile(t.api, owner.access, Buffer.from(content), { filename, filetype });
      for (const [how, request] of await everyDownloadOf(id, await link(id))) {
        const got = await request();
        assert.equal(got.headers.get('content-type'), 'application/octet-stream', `${filename} ${how}`);
        assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/, `${filename} ${how}`);
      }
    }
  });
});

describe('what may be shown in place', () => {
  test('a photo, a video, a song and a PDF asked inline keep their type, inline, under the sandbox CSP; without inline they are attachments of plain bytes', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#00ff00' } })
      .png()
      .toBuffer();
    const files: [string, Buffer, string][] = [
      ['dot.png', png, 'image/png'],
      ['clip.mp4', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypmp42'), Buffer.alloc(64)]), 'video/mp4'],
      ['song.mp3', Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64)]), 'audio/mpeg'],
      ['letter.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf'],
    ];
    for (const [filename, bytes, type] of files) {
      const id = await uploadFile(t.api, owner.access, bytes, { filename });
      const token = await urlToken(id);
      const linkToken = await link(id);
      for (const route of [`/nodes/${id}/download?inline=1&access_token=${token}`, `/s/${linkToken}/download?inline=1`]) {
        const got = await get(route);
        assert.equal(got.status, 200, route);
        assert.equal(got.headers.get('content-type'), type, `${filename} ${route}`);
        assert.match(got.headers.get('content-disposition') ?? '', /^inline;/, filename);
        assert.match(got.headers.get('content-security-policy') ?? '', /^sandbox;/, filename);
        assert.ok(got.body.equals(bytes), filename);
      }
      for (const route of [`/nodes/${id}/download?access_token=${token}`, `/s/${linkToken}/download`]) {
        const got = await get(route);
        assert.equal(got.headers.get('content-type'), 'application/octet-stream', `${filename} ${route}`);
        assert.match(got.headers.get('content-disposition') ?? '', /^attachment;/, filename);
      }
    }
  });
});

describe('no other site may embed user content', () => {
  test('Cross-Origin-Resource-Policy: same-origin on downloads, thumbnails, previews and every public link route, errors included', async () => {
    const bearer = { authorization: `Bearer ${owner.access}` };
    const checks: [string, Promise<{ status: number; headers: Headers }>][] = [
      ['download', get(`/nodes/${photoId}/download`, bearer)],
      ['download by URL token', get(`/nodes/${photoId}/download?inline=1&access_token=${await urlToken(photoId)}`)],
      ['thumbnail', get(`/nodes/${photoId}/thumbnail`, bearer)],
      ['thumbnail 1024', get(`/nodes/${photoId}/thumbnail?size=1024&access_token=${await urlToken(photoId)}`)],
      ['preview JSON', get(`/nodes/${folderId}/preview`, { ...bearer, accept: 'application/json' })],
      ['preview mosaic', get(`/nodes/${folderId}/preview`, { ...bearer, accept: 'image/webp' })],
      ['link info', get(`/s/${folderLink}`)],
      ['link children', get(`/s/${folderLink}/children`)],
      ['link thumbnail', get(`/s/${folderLink}/thumbnail?node_id=${photoId}`)],
      ['link download', get(`/s/${folderLink}/download?node_id=${photoId}&inline=1`)],
      ['link unknown', get('/s/nothing-here-at-all-00000/download')],
      ['download refused', get(`/nodes/${photoId}/download`)],
    ];
    for (const [what, request] of checks) {
      const got = await request;
      assert.ok(what.includes('refused') || what.includes('unknown') ? got.status >= 400 : got.status === 200, `${what}: ${got.status}`);
      assert.equal(got.headers.get('cross-origin-resource-policy'), 'same-origin', what);
    }
  });
});
