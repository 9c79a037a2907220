import { z } from 'zod';
import { pageOf } from './page.ts';

/*
 * What the API answers about files and folders (nodes), their versions, the gallery, the
 * trash and the activity list. Declared once, as zod schemas; each type (same name) is
 * `z.output` of its schema (see identity-responses.ts).
 */

export const NodeType = z.enum(['folder', 'file']);
export type NodeType = z.output<typeof NodeType>;

export const NodeColor = z.enum(['blue', 'green', 'orange', 'red', 'purple', 'teal', 'neutral']);
export type NodeColor = z.output<typeof NodeColor>;

/** Where a photo or video was taken: its position, and the town and country the server's offline table puts there. */
export const MediaPlace = z.object({
  latitude: z.number(),
  longitude: z.number(),
  town: z
    .string()
    .optional()
    .describe('The nearest town of the offline table (GeoNames places of 1,000 people or more); absent far from any'),
  country_code: z.string().optional().describe('ISO 3166-1 alpha-2 ("PT")'),
});
export type MediaPlace = z.output<typeof MediaPlace>;

export const MediaCamera = z.object({
  make: z.string().optional(),
  model: z.string().optional(),
  lens: z.string().optional(),
  f_number: z.number().optional().describe('1.8 for f/1.8'),
  exposure_time: z.number().optional().describe('Seconds: 0.008333 for 1/120 s'),
  iso: z.number().int().optional(),
  focal_length: z.number().optional().describe('Millimetres, as the lens says'),
});
export type MediaCamera = z.output<typeof MediaCamera>;

/** A file or a folder, as the account that reads it sees it (`starred` and `shared` are the reader's). */
export const Node = z.object({
  id: z.string(),
  type: NodeType,
  name: z.string(),
  parent_id: z.string().nullable(),
  owner_id: z.string(),
  size: z.number().int(),
  mime_type: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  color: NodeColor.nullable(),
  starred: z.boolean(),
  // Or a folder above it.
  shared: z.boolean().describe('Another account shared it with the caller'),
  trashed_at: z.number().int().nullable(),
  version: z.number().int(),
  has_thumbnail: z.boolean(),
  // Media fields: present only once the server has processed an image or video.
  image_width: z.number().int().optional(),
  image_height: z.number().int().optional(),
  taken_at: z
    .number()
    .int()
    .optional()
    .describe(
      'Capture time; absent when the file has none. With taken_offset the instant it was taken; without, the clock of the camera read as UTC (show it in UTC, with no zone)',
    ),
  taken_offset: z
    .number()
    .int()
    .optional()
    .describe(
      'Minutes east of UTC of the zone it was taken in (60 for 19:59 +01:00): show taken_at in that zone. Absent when the file does not say',
    ),
  duration_ms: z.number().int().optional().describe("A video's length"),
  place: MediaPlace.optional().describe('Where it was taken, when the file carries a position'),
  camera: MediaCamera.optional().describe('What took it and how, as far as the file says'),
  rotation: z
    .number()
    .int()
    .optional()
    .describe(
      "Degrees clockwise (90, 180, 270) its thumbnails and previews are turned by, a family member's edit (the file is untouched; image_width and image_height are the file's). Absent: as the file is",
    ),
});
export type Node = z.output<typeof Node>;

/** One content of a file; restoring it makes a new version. */
export const NodeVersion = z.object({
  id: z.string(),
  version: z.number().int(),
  size: z.number().int(),
  created_at: z.number().int(),
  created_by: z.string(),
});
export type NodeVersion = z.output<typeof NodeVersion>;

export const Activity = z.object({
  id: z.string(),
  type: z.string(),
  actor_id: z.string().nullable(),
  node_id: z.string().nullable(),
  at: z.number().int(),
  details: z.record(z.string(), z.unknown()),
});
export type Activity = z.output<typeof Activity>;

/** GET /nodes/gallery/months: the gallery's months, newest first, with what each holds. */
export const GalleryMonths = z.object({
  items: z
    .array(
      z.object({
        month: z.string().describe('YYYY-MM, of the taken time (capture time, else upload time) in UTC'),
        photos: z.number().int(),
        videos: z.number().int(),
      }),
    )
    .describe('Months that hold something, newest first'),
});
export type GalleryMonths = z.output<typeof GalleryMonths>;

export const HashCheckResponse = z.object({
  items: z
    .array(
      z.object({
        hash: z.string().describe('As asked'),
        state: z
          .enum(['present', 'deleted', 'absent'])
          .describe(
            "present: a file of the caller's, not in the trash, has this content now; deleted: none does, and one that had it was moved to the trash or deleted for good (a remembered delete); absent: neither",
          ),
        node_id: z.string().optional().describe('With present: one such file (the oldest)'),
      }),
    )
    .describe('One per hash asked, in the order asked (a hash asked twice is answered twice)'),
});
export type HashCheckResponse = z.output<typeof HashCheckResponse>;

export const TrashPage = pageOf(Node).extend({ retention_days: z.number().int() });
export type TrashPage = z.output<typeof TrashPage>;

export const NodeAccessTokenResponse = z.object({
  access_token: z
    .string()
    .describe(
      "For ?access_token= on this node's download, thumbnail, preview and playback copy only; refused anywhere else and as a bearer header",
    ),
  expires_at: z.number().int().describe('Milliseconds since the epoch; a few minutes from now'),
});
export type NodeAccessTokenResponse = z.output<typeof NodeAccessTokenResponse>;

export const PreviewResponse = z.object({
  items: z.array(z.object({ node_id: z.string(), thumbnail_url: z.string() })).max(4),
});
export type PreviewResponse = z.output<typeof PreviewResponse>;
