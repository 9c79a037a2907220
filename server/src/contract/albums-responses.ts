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
export const AlbumCover = z.object({
  id: z.string(),
  version: z.number().int(),
  has_thumbnail: z.boolean(),
  rotation: z
    .number()
    .int()
    .optional()
    .describe(
      "The photo's turn (its node's `rotation`), absent when none: sent as `&r=` so a turned cover is a new URL; the thumbnail comes turned",
    ),
});
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
  live_links: z
    .number()
    .int()
    .describe(
      'How many public links to it are open now (for everyone in it: a contributor knows whether the photos they let links show are seen outside the family)',
    ),
  created_at: z.number().int(),
  updated_at: z.number().int().describe('Last change of its name, cover or items: albums are listed most recently changed first'),
});
export type Album = z.output<typeof Album>;

/** A photo or video of an album: the node itself wherever it lives, who added it, and whom its owner let it reach. */
export const AlbumItem = Node.extend({
  added_by: z.string().describe('The account that added it: a contributor may remove only their own'),
  shared_with_album: z
    .boolean()
    .describe(
      "Its owner put it in the album: everyone in it sees it. False: someone its owner shared it with put it there, and only the people its owner shared it with see it here (never the album's links)",
    ),
  on_links: z.boolean().describe("The album's public links show it: its owner put it there and agreed to them"),
});
export type AlbumItem = z.output<typeof AlbumItem>;

/** Someone an album is shared with. */
export const AlbumMember = z.object({
  user_id: z.string(),
  name: z.string(),
  avatar_seed: z.string(),
  role: AlbumMemberRole,
  created_at: z.number().int(),
  photos_added: z
    .number()
    .int()
    .describe('How many photos and videos they put in the album: these leave it with them if they are taken out (their files stay theirs)'),
});
export type AlbumMember = z.output<typeof AlbumMember>;

export const AlbumMemberRestored = z.object({
  member: AlbumMember,
  photos_restored: z
    .number()
    .int()
    .describe('How many of the photos they had added are back in the album (one trashed meanwhile stays out)'),
});
export type AlbumMemberRestored = z.output<typeof AlbumMemberRestored>;

export const AlbumItemsAdded = z.object({
  added: z.number().int().describe('How many were not in the album before'),
  already_there: z.number().int().describe('Asked for but in the album already (each is there once)'),
  not_shared_with_album: z
    .number()
    .int()
    .describe("Of those asked for, how many are someone else's: only the people its owner shared it with see it in the album"),
  album: Album,
});
export type AlbumItemsAdded = z.output<typeof AlbumItemsAdded>;

/** An album that holds a photo, as the photo's owner sees it (GET /nodes/{id}/appearances). */
export const AlbumAppearance = z.object({
  album_id: z.string(),
  album_name: z.string(),
  album_owner_id: z.string(),
  album_owner_name: z.string(),
  added_by: z.string(),
  added_by_name: z.string(),
  added_at: z.number().int(),
  shared_with_album: z
    .boolean()
    .describe(
      'You put it there: everyone in the album sees it. False: someone you shared it with did, and only the people you shared it with see it there',
    ),
  members: z.number().int().describe('How many people the album is shared with, its owner not counted'),
  on_links: z.boolean().describe("The album's public links show it (you agreed)"),
  live_links: z.number().int().describe('How many public links to the album are open now'),
});
export type AlbumAppearance = z.output<typeof AlbumAppearance>;

/** A public link that opens a photo: one to the photo itself or to a folder above it. */
export const LinkAppearance = z.object({
  link_id: z.string(),
  node_id: z.string().describe('The photo, or the folder above it that the link opens'),
  node_name: z.string(),
  created_by: z.string(),
  created_by_name: z.string(),
  expires_at: z.number().int().nullable(),
  password_protected: z.boolean(),
  allow_download: z.boolean(),
});
export type LinkAppearance = z.output<typeof LinkAppearance>;

/** Everywhere a photo is shown beyond its folders' people: the albums holding it and the links opening it. */
export const NodeAppearances = z.object({
  albums: z.array(AlbumAppearance).describe('Every album holding it, whoever put it there, first added first'),
  links: z.array(LinkAppearance).describe('The open public links to it or to a folder above it, nearest first'),
});
export type NodeAppearances = z.output<typeof NodeAppearances>;
