import { z } from 'zod';
import { Node } from './files-responses.ts';

/*
 * What the API answers about grants (the API says permissions), links, and what a link's
 * visitor sees. Declared once, as zod schemas; each type (same name) is `z.output` of its
 * schema (see identity-responses.ts).
 */

/** One account's access to a node, given by its owner. */
export const Grant = z.object({
  user_id: z.string(),
  name: z.string(),
  avatar_seed: z.string(),
  role: z.enum(['viewer', 'editor']),
  created_at: z.number().int(),
});
export type Grant = z.output<typeof Grant>;

/** A public link: its URL carries the token, which is never stored (a replay derives it again). */
export const Link = z.object({
  id: z.string(),
  node_id: z.string().nullable().describe('What it opens: a file or folder, or (null) an album'),
  album_id: z.string().nullable().describe('The album it opens (node_id null), or null'),
  token: z.string(),
  url: z
    .string()
    .describe("The public page <origin>/s/<token>; the origin is PUBLIC_URL or the detected LAN address, never the request's Host"),
  expires_at: z.number().int().nullable(),
  password_protected: z.boolean(),
  allow_download: z.boolean(),
  active: z.boolean(),
  created_at: z.number().int(),
});
export type Link = z.output<typeof Link>;

/**
 * A node as a visitor of a link sees it: no owner id (an account id is for the family, not the
 * Internet), and the shared root has no parent (what is above it is not shared).
 */
export const PublicNode = Node.omit({ owner_id: true, place: true, camera: true })
  .extend({
    place: z
      .object({ town: z.string().optional(), country_code: z.string().optional() })
      .optional()
      .describe('Where a photo or video was taken, in words only (its town, its country): never its coordinates'),
  })
  .describe('A node as a link visitor sees it: no owner id, no camera, a place in words only; the shared root has parent_id null');
export type PublicNode = z.output<typeof PublicNode>;

export const PublicShare = z.object({
  node: PublicNode.describe('For an album: a folder named as the album, whose children are its photos in the order they were taken'),
  kind: z.enum(['node', 'album']).describe('What the link opens: a file or folder, or an album'),
  owner_name: z.string(),
  allow_download: z.boolean(),
  expires_at: z.number().int().nullable(),
  view: z
    .enum(['photos', 'files'])
    .describe(
      'How to show it: photos (an album, or a folder of photos: no folders inside, four in five of its files photos or videos), by day, without file names; files: a list of files and folders',
    ),
});
export type PublicShare = z.output<typeof PublicShare>;

export const UnlockResponse = z.object({ grant: z.string(), expires_at: z.number().int() });
export type UnlockResponse = z.output<typeof UnlockResponse>;
