import { z } from 'zod';

/*
 * Drive passwords: what a computer signs in to Hearth as a drive (WebDAV) with, one per
 * computer, beside the account's own password (which the drive door refuses, so two-step
 * sign-in cannot be gone around). Times are ms since the epoch.
 */

export const DavPassword = z.object({
  id: z.string(),
  name: z.string().describe('What the person called it: the computer it is for ("Dad\'s laptop")'),
  created_at: z.number().int(),
  last_used_at: z.number().int().nullable().describe('When a drive last signed in with it (to the minute); null: never'),
});
export type DavPassword = z.output<typeof DavPassword>;

export const NewDavPassword = z.object({
  id: z.string(),
  name: z.string(),
  password: z
    .string()
    .describe('Shown this once and never again: 26 letters and digits in groups of five (any case; dashes and spaces optional when typed)'),
  created_at: z.number().int(),
});
export type NewDavPassword = z.output<typeof NewDavPassword>;
