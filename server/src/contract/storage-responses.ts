import { z } from 'zod';

/*
 * What the API answers about libraries and drives. Declared once, as zod schemas; each type
 * (same name) is `z.output` of its schema (see identity-responses.ts).
 */

export const Library = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['internal', 'external', 'network', 'pooled']),
  status: z.enum(['online', 'offline', 'ejected']),
  // Bytes in use on the library's file system (0 while it is not online).
  used: z.number().int().describe('Owners: exact. Members: total less the coarse free space'),
  free: z.number().int().describe('Owners: exact. Members: rounded down to whole steps of 1 GiB (1 % of drives over 100 GiB)'),
  total: z.number().int(),
  content_bytes: z
    .number()
    .int()
    .describe(
      "Owners: bytes of this server's file content stored on it, identical files once. Members: their own files' bytes on it (every version); 0 in the library.changed event members get",
    ),
  default: z.boolean(),
  path: z.string().optional().describe('Admins only'),
  members: z
    .array(z.object({ device: z.string(), uuid: z.string(), path: z.string().describe('Where the drive is mounted') }))
    .optional()
    .describe('Admins only, pools only: the drives it joins'),
});
export type Library = z.output<typeof Library>;

export const Drive = z.object({
  id: z.string(),
  device: z.string(),
  description: z.string(),
  model: z.string().nullable(),
  vendor: z.string().nullable().describe('Who made it ("SanDisk"), where the system says; a partition has its disk\'s'),
  transport: z.string().nullable().describe('How its disk is connected: "usb", "sata", "nvme", ...; null when the system does not say'),
  kind: z.enum(['disk', 'partition', 'image']).describe('A whole disk, a partition of one, or a disk image (a file presented as a disk)'),
  size: z.number().int(),
  removable: z.boolean(),
  system: z.boolean().describe("Holds the operating system or the server's data: never formatted"),
  in_use: z.boolean(),
  usable: z.boolean(),
  mountpoints: z.array(z.string()),
  filesystem: z.string().nullable(),
  label: z.string().nullable(),
  // How the server finds the drive again whatever its device name.
  uuid: z.string().nullable().describe('File system UUID'),
  library_id: z.string().nullable(),
});
export type Drive = z.output<typeof Drive>;

const Capability = z.object({ available: z.boolean(), reason: z.string().optional().describe('Why not, when not available') });

const FormatCapability = Capability.extend({
  filesystems: z
    .array(Capability.extend({ name: z.enum(['ext4', 'exfat']) }))
    .describe(
      'Each file system an erase can write, and why not when this PC lacks its tool (exFAT needs exfatprogs); a format to one that is not available is 400 filesystem_unavailable',
    ),
});

export const DrivesResponse = z.object({
  items: z.array(Drive),
  helper_available: z.boolean(),
  capabilities: z.object({ format: FormatCapability, mount: Capability, pool: Capability }),
});
export type DrivesResponse = z.output<typeof DrivesResponse>;

/** What a read-only look found on a drive, for the erase dialog. */
export const DriveContents = z.object({
  used: z.number().int().describe('Bytes in use on its file systems'),
  top_level: z.array(z.object({ name: z.string(), kind: z.enum(['folder', 'file']) })).describe('Up to 50 per file system, folders first'),
  files: z.number().int(),
  photos: z.number().int().describe('Files named as photos or videos'),
  complete: z.boolean().describe('False when counting stopped at its time limit: at least these many'),
});
export type DriveContents = z.output<typeof DriveContents>;

export const DriveDetail = Drive.extend({
  contents: DriveContents.nullable().describe(
    'What a read-only look found on the drive; null when it could not look (no file system, encrypted, no right to mount)',
  ),
});
export type DriveDetail = z.output<typeof DriveDetail>;

export const FormatResponse = z.object({
  drive: Drive,
  previous: z
    .object({ filesystem: z.string().nullable(), label: z.string().nullable(), uuid: z.string().nullable() })
    .describe('What was on it before'),
});
export type FormatResponse = z.output<typeof FormatResponse>;
