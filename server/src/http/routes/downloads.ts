import { z } from 'zod';
import { AppError } from '../../app-error.ts';
import { ZipTicket } from '../../contract/downloads-responses.ts';
import { API_PREFIX } from '../paths.ts';
import { reply, route, type AnyRoute } from '../route-def.ts';
import { sendZip } from '../send-zip.ts';

const ZipBody = z.object({
  node_ids: z
    .array(z.string().min(1).max(100))
    .min(1)
    .max(20_000)
    .describe(
      'Files and folders to zip (a folder with everything in it that is not in the trash), in this order; 1 to 20,000, repeats ignored',
    ),
  name: z
    .string()
    .max(1000)
    .optional()
    .describe('What to call the zip (".zip" is added); default: the one folder asked for, else "Hearth download"'),
});

const TicketParam = z.object({ ticket: z.string().min(1).max(200) });

/** Many files as one zip, streamed as it is made, fetched through a one-use ticket. */
export const downloadRoutes: readonly AnyRoute[] = [
  route({
    method: 'POST',
    path: '/downloads',
    tag: 'downloads',
    summary:
      'Ask for a zip of files and folders: every one is checked here (one the caller may not read: 404 not_found naming it in field, the whole request; one in the trash: 409 in_trash) and the answer is a one-use ticket whose url the browser follows by itself (an <a download> click), so the zip streams to disk and no session token sits in a URL',
    auth: 'user',
    body: ZipBody,
    responses: { 201: { description: 'The ticket, and what the zip will hold', schema: ZipTicket } },
    errors: ['not_found', 'in_trash', 'too_many_files', 'invalid_name', 'name_too_long', 'library_offline'],
    handler: ({ services, actor, body }) => {
      const { ticket, ...zip } = services.zipDownloads.mint(actor, body);
      return reply(201, { url: `${API_PREFIX}/downloads/${ticket}`, ...zip });
    },
  }),
  route({
    method: 'GET',
    path: '/downloads/:ticket',
    tag: 'downloads',
    summary:
      'The zip of a ticket from POST /downloads, streamed as it is made: an attachment of type application/zip with its Content-Length, files stored as they are (no compression: photos and videos are compressed already), ZIP64 past 4 GiB, names as the family sees them (UTF-8; a name met twice in one folder numbered, "photo (1).jpg"). Once, within a minute, by the session that asked, while it may still read each item. No Range; HEAD is refused (405), as it would spend the ticket',
    auth: 'none',
    params: TicketParam,
    responses: { 200: { description: 'The zip', contentType: 'application/zip' } },
    errors: ['download_expired', 'invalid_token', 'not_found', 'library_offline', 'method_not_allowed'],
    // The ticket's session: its downloads count together, though the browser follows the URL without its token.
    download: { sessionOf: (params, services) => services.zipDownloads.sessionOf(params.ticket ?? '') },
    handler: ({ services, params, koa }) => {
      // A HEAD (a download manager looking first) would spend the ticket the GET needs.
      if (koa.method === 'HEAD')
        throw new AppError('method_not_allowed', 'A download ticket is spent by its GET: send GET alone.', { headers: { Allow: 'GET' } });
      sendZip(koa, services.zipDownloads.open(params.ticket));
    },
  }),
];
