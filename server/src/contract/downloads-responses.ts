import { z } from 'zod';

/*
 * What the API answers about zip downloads. Declared once, as zod schemas; each type (same
 * name) is `z.output` of its schema (see identity-responses.ts).
 */

/** POST /downloads: a one-use ticket whose URL the browser follows to save the zip. */
export const ZipTicket = z.object({
  url: z
    .string()
    .describe(
      'GET it once, within expires_at, from this origin: the zip streams as it is made (Content-Length known ahead). The URL holds the ticket, never a session token',
    ),
  expires_at: z.number().int().describe('Milliseconds since the epoch; a minute from now. Unused by then, the ticket is gone'),
  name: z.string().describe('The zip file name, ending in .zip'),
  files: z.number().int().describe('Files in it, the contents of folders counted'),
  folders: z.number().int().describe('Folders in it (a folder asked for, and each folder inside one)'),
  bytes: z.number().int().describe('The bytes of the files it holds (the zip is a little larger)'),
});
export type ZipTicket = z.output<typeof ZipTicket>;
