import { z } from 'zod';

/*
 * Request schemas that routes of several areas take. A schema one area alone takes sits in its
 * routes/<area>.ts, beside the handlers. Domain rules (username form, password length) live in
 * the services, so every door enforces them the same way.
 */

export const IdParam = z.object({ id: z.string().min(1).max(100) });

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
});

/** Renaming a device: the account's own (devices) or any account's (admin). */
export const SessionPatchBody = z.object({
  device_name: z.string().max(200).describe('What the device is called in the lists of devices: 1 to 64 characters'),
});

/** A public link's settings, for a node's link (sharing) or an album's (albums). */
export const LinkBody = z.object({
  password: z.string().max(256).nullable().optional().describe('null or "" removes it'),
  expires_at: z.number().int().positive().nullable().optional().describe('null never expires; a past time expires the link now'),
  allow_download: z.boolean().optional().describe('Default true'),
});
