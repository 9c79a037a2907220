import { z } from 'zod';
import { Node } from './files-responses.ts';

/*
 * What the API answers about albums: photos and videos gathered by reference (an album never
 * copies a file), shared with family members. Declared once, as zod schemas; each type (same
 * name) is `z.output` of its schema (see identity-responses.ts).
 */

export const AlbumRole = z.enum(['owner', 'contributor', 'viewer']);
export type AlbumRole = z.output<typeof AlbumRole>;

export const AlbumMemberRole = z.enum(['viewer', 'contributor']);
export type AlbumMemberRole = z.output<typeof AlbumMemberRole>;

/** What a client needs to ask for an album's cover picture (GET /nodes/{id}/thumbnail?v=<version>). */
export const AlbumCover = z.object({ id: z.string(), version: z.number().int(), has_thumbnail: z.boolean() });
export type AlbumCover = z.output<typeof AlbumCover>;

/** An album as the account that reads it sees it (`role` is the reader's). */
export const Album = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string(),
  owner_name: z.string().describe("The owner's name as /users gives it"),
  role: AlbumRole.describe('The caller: its owner; a contributor (adds and removes their own photos and videos); or a viewer'),
  cover: AlbumCover.nullable().describe('The cover the owner chose while it is in the album, else its newest photo; null when empty'),
  photos: z.number().int().describe('Photos shown in it: in the trash, or no longer readable by whoever added them, they are not'),
  videos: z.number().int(),
  first_taken_at: z.number().int().nullable().describe('Taken time (else upload time) of its oldest item; null when empty'),
  last_taken_at: z.number().int().nullable().describe('Of its newest item'),
  members: z.number().int().describe('How many people it is shared with, the owner not counted'),
  created_at: z.number().int(),
  updated_at: z.number().int().describe('Last change of its name, cover or items: albums are listed most recently changed first'),
});
export type Album = z.output<typeof Album>;

/** A photo or video of an album: the node itself wherever it lives, and who added it. */
export const AlbumItem = Node.extend({
  added_by: z.string().describe('The account that added it: a contributor may remove only their own'),
});
export type AlbumItem = z.output<typeof AlbumItem>;

/** Someone an album is shared with. */
export const AlbumMember = z.object({
  user_id: z.string(),
  name: z.string(),
  avatar_seed: z.string(),
  role: AlbumMemberRole,
  created_at: z.number().int(),
});
export type AlbumMember = z.output<typeof AlbumMember>;

export const AlbumItemsAdded = z.object({
  added: z.number().int().describe('How many were not in the album before'),
  already_there: z.number().int().describe('Asked for but in the album already (each is there once)'),
  album: Album,
});
export type AlbumItemsAdded = z.output<typeof AlbumItemsAdded>;
