import { z } from 'zod';

/*
 * What the API answers about an account's Private folder (a locked folder): whether it exists,
 * whether this session has it open and until when, and whether a PIN opens it.
 */

export const PrivateStatus = z.object({
  /** The Private folder's node, once made (the first move into it, or the first unlock). */
  folder_id: z.string().nullable(),
  /** Until when this session has it open (ms since the epoch); null while locked. */
  unlocked_until: z.number().int().nullable(),
  /** Whether the account set a PIN (4 to 8 digits) that opens it besides the password. */
  has_pin: z.boolean(),
  /** How long an unlock lasts, in minutes (the server's setting). */
  unlock_minutes: z.number().int(),
});
export type PrivateStatus = z.output<typeof PrivateStatus>;
