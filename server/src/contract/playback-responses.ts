import { z } from 'zod';

/*
 * Playback copies: what the API says about a video's copy for browsers that cannot play the
 * original, and the owner's view of the queue that makes them. Declared once, as zod schemas;
 * each type (same name) is `z.output` of its schema.
 */

export const CopyState = z
  .enum(['not_needed', 'waiting', 'making', 'ready', 'failed', 'off', 'unavailable', 'over_quota'])
  .describe(
    "not_needed: every browser plays the original; waiting: a copy will be made (the queue); making: it is being made now; ready: GET /nodes/{id}/download?copy=playback plays it; failed: it could not be made from this file; off: the owner switched copies off and none was made; unavailable: this server has no ffmpeg to make one; over_quota: a copy counts against the quota of the video's owner, and there is not enough room left in it for this one (it is made once there is: the original still downloads)",
  );
export type CopyState = z.output<typeof CopyState>;

export const PlaybackInfo = z.object({
  original: z.object({
    type: z
      .string()
      .nullable()
      .describe(
        'The original\'s type with its codecs, for canPlayType and MediaCapabilities (`video/mp4; codecs="hvc1.1.6.L93.B0, mp4a.40.2"`); null when its codecs have no such name (ProRes, PCM sound): play the copy',
      ),
    width: z.number().int().nullable().describe('Upright'),
    height: z.number().int().nullable().describe('Upright'),
    framerate: z.number().nullable(),
    bitrate: z.number().int().nullable().describe("The video stream's bits per second"),
    duration_seconds: z.number().nullable(),
  }),
  copy: z.object({
    state: CopyState,
    size: z.number().int().nullable().describe('Bytes, once ready'),
    progress: z.number().nullable().describe('0 to 1 while making'),
    waiting_before: z.number().int().nullable().describe('While waiting: how many copies will be made before this one'),
  }),
});
export type PlaybackInfo = z.output<typeof PlaybackInfo>;

/** Why nothing is being made while copies wait. */
export const QueuePause = z
  .enum(['off', 'unavailable', 'thumbnails', 'disk_space', 'library_offline', 'quota'])
  .describe(
    "off: switched off in the settings; unavailable: no ffmpeg; thumbnails: photos and videos being processed go first; disk_space: the disk of the videos has too little room left; library_offline: the drive of the waiting videos is not connected; quota: the waiting copies do not fit in what is left of their owners' quotas",
  );
export type QueuePause = z.output<typeof QueuePause>;

export const PlaybackQueue = z.object({
  enabled: z.boolean().describe('The make_playback_copies setting'),
  waiting: z.number().int().describe('Copies to make, the one being made not counted'),
  checking: z.number().int().describe('Videos not looked at yet'),
  making: z
    .object({
      duration_seconds: z.number().nullable().describe("The video's length"),
      progress: z.number().describe('0 to 1'),
      started_at: z.number().int(),
    })
    .nullable(),
  paused: QueuePause.nullable(),
  ready: z.number().int().describe('Copies made'),
  bytes: z.number().int().describe('The space the copies take'),
  failed: z.number().int().describe('Videos no copy could be made of'),
});
export type PlaybackQueue = z.output<typeof PlaybackQueue>;
