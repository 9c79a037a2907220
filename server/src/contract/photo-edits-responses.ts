import { z } from 'zod';
import { MediaPlace, Node } from './files-responses.ts';

/** A photo's edits: what the family changed, and what its file itself says (shown again on revert). */
export const PhotoEdits = z.object({
  node: Node.describe('The photo as it is shown now (its taken_at, place and rotation are the edited ones)'),
  rotation: z.number().int().describe('Degrees clockwise: 0, 90, 180 or 270'),
  taken_edited: z.boolean().describe('The date shown is a correction, not what the file says'),
  place_edited: z.boolean().describe('The place shown is a correction (or was taken away), not what the file says'),
  original: z
    .object({
      taken_at: z.number().int().optional(),
      taken_offset: z.number().int().optional(),
      place: MediaPlace.optional(),
    })
    .describe('What the file itself says, untouched by the edits'),
});
export type PhotoEdits = z.output<typeof PhotoEdits>;
