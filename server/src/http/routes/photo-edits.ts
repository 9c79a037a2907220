import { z } from 'zod';
import { PhotoEdits } from '../../contract/photo-edits-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { contentDisposition } from '../range.ts';
import { USER_CONTENT_CSP } from '../served-type.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';

const PlaceBody = z
  .object({
    name: z
      .string()
      .max(200)
      .optional()
      .describe('A town\'s name ("Lisbon"): alone, its position is looked up in Hearth\'s own table of towns'),
    latitude: z.number().optional().describe('-90 to 90, with longitude'),
    longitude: z.number().optional().describe('-180 to 180, with latitude'),
  })
  .nullable()
  .describe('Where it was taken: a town by name, or a position (a name with it names the town); null: nowhere known');

const EditsBody = z.object({
  rotation: z
    .number()
    .optional()
    .describe('Degrees clockwise its pictures are shown turned by, a multiple of 90 (kept as 0, 90, 180 or 270)'),
  taken_at: z.number().optional().describe('When it was taken, ms since 1970 UTC: from 1826 to a day ahead of now'),
  taken_offset: z
    .number()
    .nullable()
    .optional()
    .describe("Minutes east of UTC where it was taken, with taken_at (absent: the photo's own, if it had one)"),
  place: PlaceBody.optional(),
});

/**
 * A photo's edits beside the original: turned a quarter at a time, its date and place corrected.
 * The file is never rewritten: downloads are the original.
 */
export const photoEditRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/photos/:id/edits',
    tag: 'photos',
    summary: "A photo's edits and what its file itself says (anyone who sees the photo)",
    auth: 'user',
    params: IdParam,
    responses: ok('Its edits', PhotoEdits),
    errors: ['not_a_photo'],
    handler: ({ services, actor, params }) => services.photoEdits.get(actor, params.id),
  }),
  route({
    method: 'PATCH',
    path: '/photos/:id/edits',
    tag: 'photos',
    summary:
      'Turn a photo, correct its date or place (whoever may change it: its owner or an editor; someone who only looks 403). The timeline, search and albums follow at once; everyone who sees it hears node.updated. The file is untouched',
    auth: 'user',
    params: IdParam,
    body: EditsBody,
    responses: ok('Its edits now', PhotoEdits),
    errors: [
      'invalid_rotation',
      'cannot_rotate_video',
      'taken_in_future',
      'place_out_of_range',
      'unknown_place',
      'not_a_photo',
      'forbidden',
    ],
    handler: ({ services, actor, params, body }) => services.photoEdits.edit(actor, params.id, body),
  }),
  route({
    method: 'DELETE',
    path: '/photos/:id/edits',
    tag: 'photos',
    summary: 'Back to what the file says: no turn, its own date and place (whoever may change it)',
    auth: 'user',
    params: IdParam,
    responses: ok('Its edits now (none)', PhotoEdits),
    errors: ['not_a_photo', 'forbidden'],
    handler: ({ services, actor, params }) => services.photoEdits.revert(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/photos/:id/edited',
    tag: 'photos',
    summary:
      'Download a photo as edited (anyone who sees it; 404 otherwise): made again from the original, turned as it was turned, its date (DateTimeOriginal and its zone) and place (GPS) as corrected written into its EXIF; a JPEG (a PNG stays PNG; a HEIC/HEIF is decoded as its thumbnails are, upright by its own irot turn) attachment named "<name> (edited).jpg". The original file is untouched and GET /nodes/{id}/download still sends it',
    auth: 'user',
    params: IdParam,
    responses: { 200: { description: 'The photo as edited', contentType: 'image/jpeg' } },
    errors: ['not_a_photo', 'library_offline'],
    handler: async ({ services, actor, params, koa }) => {
      const photo = await services.editedPhotos.render(actor, params.id);
      koa.state.responded = true;
      koa.set({
        'Cache-Control': 'private, no-store',
        'Content-Disposition': contentDisposition('attachment', photo.filename),
        'Content-Security-Policy': USER_CONTENT_CSP,
      });
      koa.type = photo.mime;
      koa.body = photo.body;
    },
  }),
];
