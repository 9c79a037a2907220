import { z } from 'zod';
import { PublicUser } from './identity-responses.ts';

/*
 * What the API answers about partner sharing: an account showing its photos and videos in
 * another's Photos. Declared once, as zod schemas; each type (same name) is `z.output` of its
 * schema (see identity-responses.ts).
 */

/** A day as the family writes it in a form: YYYY-MM-DD. */
export const PartnerSince = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a day as YYYY-MM-DD')
  .describe('Photos and videos taken on or after this day (YYYY-MM-DD, on the clock where each was taken, as the timeline counts them)');

export const PartnerShare = z.object({
  owner: PublicUser.describe('Whose photos and videos'),
  partner: PublicUser.describe('Who sees them in Photos (Everyone’s), read only'),
  since: PartnerSince.nullable().describe('The first day shared; null: all of them, whenever taken'),
  created_at: z.number().int(),
  updated_at: z.number().int().describe('When it started or its first day last changed'),
});
export type PartnerShare = z.output<typeof PartnerShare>;
