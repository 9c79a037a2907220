import { z } from 'zod';

/** How much of the PC face finding may use: a share of one core (Gentle a quarter, Normal half, Fast all of it). */
export const FaceSpeed = z.enum(['gentle', 'normal', 'fast']);
export type FaceSpeed = z.output<typeof FaceSpeed>;

/** The owner's view of face finding (Manage → Storage): how far it has got, how fast, and the owner's two choices. */
export const FaceFinding = z.object({
  available: z.boolean().describe('False when this server was started with face finding off (FIND_FACES=0): nothing is looked at'),
  paused: z.boolean().describe("The owner's pause: while true the face worker runs nothing (kept across restarts)"),
  speed: FaceSpeed.describe(
    'The share of one CPU core face finding may use: after each photo the worker rests so its work is 25% (gentle), 50% (normal) or 100% (fast) of the time',
  ),
  state: z
    .enum(['off', 'paused', 'finding', 'done'])
    .describe('off: not available; paused: by the owner; finding: photos wait (the family still comes first); done: every photo looked at'),
  total: z.number().int().describe('Photos and videos face finding looks at (not in the trash, never Private)'),
  done: z.number().int().describe('Of those, looked at'),
  waiting: z.number().int().describe('Of those, still to look at'),
  photos_per_minute: z.number().nullable().describe('Recent speed, rests included; null until measured (or while paused or done)'),
  seconds_left: z.number().int().nullable().describe('waiting at the recent speed; null when unknown'),
  last_photo: z
    .object({
      work_ms: z.number().int().describe('The CPU time the worker spent on the last photo looked at'),
      rest_ms: z.number().int().describe('The rest taken after it, which the speed decides'),
    })
    .nullable()
    .describe('Since this server started'),
});
export type FaceFinding = z.output<typeof FaceFinding>;
