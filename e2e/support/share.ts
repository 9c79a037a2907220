import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { uploadFile } from '../../server/test/helpers/upload.ts';
import type { Account, Hearth } from './hearth.ts';

const MEDIA = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'test', 'fixtures', 'media');

export interface Seeded {
  folderId: string;
  subfolderId: string;
  /** Every file uploaded, by name, with its bytes. */
  files: Map<string, { id: string; bytes: Buffer }>;
}

/** A real JPEG of its own colour, so each photo has its own bytes and thumbnail. */
export function photo(shade: number, width = 800, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: (shade * 53) % 255, g: (shade * 97) % 255, b: 140 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

/**
 * A family folder as a parent would share it: "Summer at the lake" with three photos, a video,
 * a note and a folder "Day two" holding one more photo. Resolves once every thumbnail is made.
 */
export async function seedAlbum(hearth: Hearth, account: Account, name = 'Summer at the lake'): Promise<Seeded> {
  const folder = await hearth.api.ok('POST', '/nodes/folder', account.access, { name });
  const sub = await hearth.api.ok('POST', '/nodes/folder', account.access, { name: 'Day two', parent_id: folder.id });
  const files = new Map<string, { id: string; bytes: Buffer }>();
  const put = async (fileName: string, bytes: Buffer, type: string, parentId: string) => {
    const id = await uploadFile(hearth.api.base, account.access, bytes, { filename: fileName, filetype: type, parentId });
    files.set(fileName, { id, bytes });
  };
  await put('Beach.jpg', await photo(1), 'image/jpeg', folder.id);
  await put('Boat.jpg', await photo(2), 'image/jpeg', folder.id);
  await put('Sunset.jpg', await photo(3), 'image/jpeg', folder.id);
  await put('Swimming.mp4', await fs.readFile(path.join(MEDIA, 'clip.mp4')), 'video/mp4', folder.id);
  await put('Packing list.txt', Buffer.from('towels\nsun cream\nbooks\n'), 'text/plain', folder.id);
  await put('Picnic.jpg', await photo(4), 'image/jpeg', sub.id);
  await thumbnailsReady(hearth, account, [folder.id, sub.id], 5);
  return { folderId: folder.id, subfolderId: sub.id, files };
}

/** Waits until the photos and videos in these folders have their thumbnails. */
export async function thumbnailsReady(hearth: Hearth, account: Account, folderIds: string[], count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    let ready = 0;
    for (const id of folderIds) {
      const page = await hearth.api.ok('GET', `/nodes?parent_id=${id}&limit=100`, account.access);
      ready += page.items.filter((n: { has_thumbnail: boolean }) => n.has_thumbnail).length;
    }
    if (ready >= count) return;
    if (Date.now() > deadline) throw new Error(`only ${ready} of ${count} thumbnails were made within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export interface Link {
  id: string;
  token: string;
  url: string;
}

export function makeLink(
  hearth: Hearth,
  account: Account,
  nodeId: string,
  settings: { password?: string; expires_at?: number; allow_download?: boolean } = {},
): Promise<Link> {
  return hearth.api.ok('POST', `/nodes/${nodeId}/share`, account.access, settings);
}

/** The page of a link as the app serves it here (the link's own URL names the server's LAN address). */
export function linkPath(link: { url: string }): string {
  return new URL(link.url).pathname;
}

let names = 0;
/** A display name for the account, made unique on this server if it is taken already. */
export async function callThem(hearth: Hearth, account: Account, name: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const wanted = attempt === 0 ? name : `${name} ${++names}`;
    const res = await hearth.api.call('PATCH', '/me/profile', account.access, { display_name: wanted });
    if (res.status < 300) return wanted;
  }
  throw new Error(`no display name like ${name} could be set`);
}
