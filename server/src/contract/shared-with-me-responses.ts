import { z } from 'zod';
import { Album } from './albums-responses.ts';
import { Node } from './files-responses.ts';
import { PublicUser } from './identity-responses.ts';
import { PartnerSince } from './partners-responses.ts';

/*
 * What the API answers about everything shared with the caller, in one list: files and folders
 * (grants), albums someone else owns that it is in, and partners whose photos it sees. Declared
 * once, as zod schemas; each type (same name) is `z.output` of its schema.
 */

export const SharedWithMeKind = z.enum(['file', 'folder', 'album', 'partner']);
export type SharedWithMeKind = z.output<typeof SharedWithMeKind>;

export const SharedWithMeItem = z.object({
  kind: SharedWithMeKind.describe(
    'file or folder: shared with the caller in Share; album: an album it is in; partner: all the photos of someone',
  ),
  id: z.string().describe('The file or folder (a node id), the album, or (partner) the account whose photos the caller sees'),
  name: z.string().describe("The file's, folder's or album's name; for a partner, that person's name"),
  shared_by: PublicUser.describe('Who shared it with the caller'),
  shared_at: z.number().int().describe('When it was shared with the caller: the list is newest first by this'),
  role: z
    .enum(['viewer', 'editor', 'contributor'])
    .describe('What the caller may do: viewer looks; editor (files) also changes; contributor (albums) also adds photos'),
  node: Node.nullable().describe('The file or folder as the caller sees it (null for albums and partners)'),
  album: Album.nullable().describe('The album as the caller sees it (null for anything else)'),
  since: PartnerSince.nullable().describe('Partner only: the first day shown; null: all of them (or not a partner)'),
});
export type SharedWithMeItem = z.output<typeof SharedWithMeItem>;
