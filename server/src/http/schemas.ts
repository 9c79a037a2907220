import { z } from 'zod';

/*
 * Shapes of what crosses HTTP. Requests are validated against these; responses are
 * described by them in the OpenAPI document. Domain rules (username form, password length)
 * live in the services so every door enforces them the same way.
 */

const deviceFields = {
  device_name: z
    .string()
    .max(200)
    .nullish()
    .describe('A name for this device, shown in the session list; when absent the server names it from its User-Agent ("Chrome on Pixel 7")'),
  platform: z.string().max(200).nullish(),
  device_model: z
    .string()
    .max(100)
    .nullish()
    .describe("The device's model as the browser reports it through User-Agent Client Hints (the User-Agent itself no longer carries it), for the name"),
};

export const SessionPatchBody = z.object({
  device_name: z.string().max(200).describe('What the device is called in the lists of devices: 1 to 64 characters'),
});

export const SetupBody = z.object({
  username: z.string(),
  password: z.string(),
  server_name: z.string().max(200).optional(),
  setup_code: z
    .string()
    .max(100)
    .optional()
    .describe('Headless server, request from another machine: the code printed beside "listening on" (GET /status says when it is needed)'),
  ...deviceFields,
});

export const RecoverBody = z.object({
  code: z.string().max(100).describe('The one-time code made at the PC: `npm run owner -- reset`, or the desktop app\'s tray menu'),
  new_password: z.string(),
  ...deviceFields,
});

export const RegisterBody = z.object({
  username: z.string(),
  password: z.string(),
  invite_code: z.string().max(200).optional(),
  display_name: z.string().max(200).nullish(),
});

export const LoginBody = z.object({
  username: z.string().max(200),
  password: z.string().max(1024),
  totp_code: z.string().max(100).optional().describe('An authenticator code or a single-use recovery code'),
  ...deviceFields,
});

export const RefreshBody = z.object({ refresh_token: z.string().min(1).max(200) });
export const ProfileBody = z.object({ display_name: z.string().max(200).nullable().optional() });
export const PasswordBody = z.object({ current_password: z.string().max(1024), new_password: z.string() });
export const TotpVerifyBody = z.object({ code: z.string().max(20) });
export const TotpDisableBody = z.object({ password: z.string().max(1024) });

export const Role = z.enum(['admin', 'member']);

export const UserPatchBody = z.object({
  role: Role.optional(),
  quota_bytes: z.number().int().min(0).nullable().optional().describe('null means unlimited'),
  disabled: z.boolean().optional(),
});

export const ResetPasswordBody = z.object({
  new_password: z.string().optional().describe('Generated when omitted'),
});

export const InviteBody = z.object({
  expires_at: z.number().int().positive().nullable().optional(),
  max_uses: z.number().int().min(1).max(1_000_000).nullable().optional().describe('Default 1; null means unlimited'),
  role: Role.optional(),
  label: z.string().max(200).nullable().optional().describe('Who it is for ("Grandma"), up to 64 characters; shown in the invite list'),
});

export const SettingsPatchBody = z.object({
  server_name: z.string().max(200).optional(),
  allow_self_registration: z.boolean().optional(),
  require_device_approval: z.boolean().optional(),
  trash_retention_days: z.number().int().min(1).max(3650).optional(),
  default_quota_bytes: z.number().int().min(0).nullable().optional(),
});

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  cursor: z.string().max(500).optional(),
});

export const UsersQuery = PageQuery.extend({ q: z.string().max(100).optional() });

export const IdParam = z.object({ id: z.string().min(1).max(100) });
export const CodeParam = z.object({ code: z.string().min(1).max(200) });

// ---- Responses (documentation) ----

const UserSummary = z.object({
  id: z.string(),
  username: z.string(),
  role: Role,
  display_name: z.string().nullable(),
  avatar_seed: z.string(),
  must_change_password: z.boolean(),
  totp_enabled: z.boolean(),
});

const Quota = z.object({ used: z.number().int(), limit: z.number().int().nullable() });

export const TokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.number().int(),
  session_id: z.string(),
  user: UserSummary,
});

const PairingCode = z
  .string()
  .regex(/^\d{6}$/)
  .describe('Six digits derived from the pending session: shown on the waiting device and beside its request in the console');

export const PendingResponse = z.object({
  status: z.literal('pending'),
  session_id: z.string(),
  access_token: z.string().describe('Pending scope: only GET /auth/session/{id}/status accepts it'),
  pairing_code: PairingCode,
});

export const DeviceStatusResponse = z.union([
  z.object({ status: z.literal('pending'), pairing_code: PairingCode }),
  TokenResponse.extend({ status: z.literal('approved') }).describe(
    'Answered once; polls after that answer 409 tokens_already_issued',
  ),
]);

export const StatusResponse = z.object({
  name: z.string(),
  server_id: z.string(),
  version: z.string(),
  setup_required: z.boolean(),
  setup_code_required: z.boolean().describe('Setup from this caller needs the setup code printed where the server was started'),
  setup_in_desktop_app: z.boolean().describe('Setup happens in the desktop app\'s window on the PC; POST /setup answers 403 setup_in_app'),
  require_device_approval: z.boolean(),
  allow_self_registration: z.boolean(),
  ready: z.boolean(),
  storage: z.enum(['ok', 'full', 'read_only']).describe('Whether new files can be saved: `full` or `read_only` say why not (reads keep working)'),
});

const Check = z.enum(['ok', 'failing']);
export const HealthResponse = z.object({
  status: Check,
  version: z.string(),
  checks: z.object({
    db: Check,
    storage: z.enum(['ok', 'full', 'read_only', 'failing']).describe('`full`: no space left for new files; `read_only`: the system made the disk read-only'),
  }),
});

export const MeResponse = UserSummary.extend({ quota: Quota });
export const AdminUserResponse = MeResponse.extend({
  disabled: z.boolean(),
  created_at: z.number().int(),
  main_owner: z.boolean().describe('The account first-run setup made: the desktop app\'s, never switched off, made a member or reset by another admin'),
});
export const PublicUserResponse = z.object({ id: z.string(), name: z.string(), avatar_seed: z.string() });
export const UserResponse = z.object({ user: UserSummary });

export const SessionResponse = z.object({
  id: z.string(),
  device_name: z.string().nullable(),
  platform: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
  approved_at: z.number().int().nullable(),
  status: z.enum(['pending', 'active', 'denied', 'revoked']),
  current: z.boolean(),
});

export const AdminSessionResponse = SessionResponse.extend({
  user_id: z.string(),
  username: z.string(),
  display_name: z.string().nullable().describe("The account's display name, what the family calls that person"),
}).describe("A live session of any account; `current` is the caller's own");

export const AdminStatusResponse = z.object({
  version: z.string(),
  started_at: z.number().int().describe('When this server process started'),
  uptime_seconds: z.number().int(),
  data_dir: z.string().describe('Where the database and the built-in library live on this PC'),
});

export const PendingDeviceResponse = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  display_name: z.string().nullable().describe("The account's display name, shown on the request instead of the username"),
  device_name: z.string().nullable(),
  platform: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.number().int(),
  pairing_code: PairingCode,
});

export const InviteResponse = z.object({
  id: z.string(),
  role: Role,
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  expires_at: z.number().int().nullable(),
  created_at: z.number().int(),
  created_by: z.string(),
  label: z.string().nullable().describe('Who it is for, as the owner wrote it'),
  code: z.string().optional().describe('Only in the response that creates the invite'),
  url: z
    .string()
    .optional()
    .describe("Only in the response that creates the invite: <origin>/invite/<code>, the web app's page that registers with it; the origin is PUBLIC_URL or the detected LAN address, never the request's Host"),
});

export const InviteCheckResponse = z.object({ valid: z.boolean(), expires_at: z.number().int().optional() });

export const SettingsResponse = z.object({
  server_name: z.string(),
  allow_self_registration: z.boolean(),
  require_device_approval: z.boolean(),
  trash_retention_days: z.number().int(),
  default_quota_bytes: z.number().int().nullable(),
  link_reach: z
    .enum(['home_network', 'internet'])
    .describe(
      'Read only: where the links this server hands out (public links, invites) open. home_network while their origin is a LAN address, a .local or other home-only name; internet once PUBLIC_URL names a public address',
    ),
});

export const TotpBeginResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export const RecoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()).length(10) });
export const TemporaryPasswordResponse = z.object({ temporary_password: z.string() });

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

export const ErrorResponse = z.object({
  error: z.object({ code: z.string(), message: z.string(), field: z.string().optional() }),
});

// ---- Nodes ----

const NodeColor = z.enum(['blue', 'green', 'orange', 'red', 'purple', 'teal', 'neutral']);

export const CreateFolderBody = z.object({
  name: z.string(),
  parent_id: z.string().max(100).nullish().describe('Omitted, null or "root": the top level'),
});

export const NodePatchBody = z.object({
  name: z.string().optional(),
  parent_id: z.string().max(100).nullable().optional().describe('Move here; null or "root" is the top level'),
  color: NodeColor.nullable().optional(),
});

export const ListQuery = PageQuery.extend({
  parent_id: z.string().max(100).optional().describe('"root" (the default) is the top level'),
  filter: z.enum(['shared', 'starred', 'recent', 'gallery']).optional(),
  query: z.string().max(255).optional().describe('Name contains, ignoring case and accents'),
  sort: z.enum(['name', 'updated', 'created', 'size', 'taken']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'a month as YYYY-MM')
    .optional()
    .describe('With filter=gallery: only what was taken in this month (YYYY-MM, UTC), as /nodes/gallery/months counts it'),
});

export const GalleryMonthsResponse = z.object({
  items: z.array(
    z.object({
      month: z.string().describe('YYYY-MM, of the taken time (capture time, else upload time) in UTC'),
      photos: z.number().int(),
      videos: z.number().int(),
    }),
  ).describe('Months that hold something, newest first'),
});

export const DownloadQuery = z.object({
  inline: z.enum(['0', '1', 'true', 'false']).optional().describe('Show images, video, audio and PDF in place'),
  access_token: z.string().optional().describe("For elements that cannot send headers: a token from POST /nodes/{id}/access-token for this node (never the session's own)"),
});

export const VersionParams = z.object({ id: z.string().min(1).max(100), vid: z.string().min(1).max(100) });

export const NodeResponse = z.object({
  id: z.string(),
  type: z.enum(['folder', 'file']),
  name: z.string(),
  parent_id: z.string().nullable(),
  owner_id: z.string(),
  size: z.number().int(),
  mime_type: z.string().nullable(),
  created_at: z.number().int(),
  updated_at: z.number().int(),
  color: NodeColor.nullable(),
  starred: z.boolean(),
  shared: z.boolean().describe('Another account shared it with the caller'),
  trashed_at: z.number().int().nullable(),
  version: z.number().int(),
  has_thumbnail: z.boolean(),
  image_width: z.number().int().optional(),
  image_height: z.number().int().optional(),
  taken_at: z.number().int().optional().describe('Capture time; absent when the file has none'),
});

export const VersionResponse = z.object({
  id: z.string(),
  version: z.number().int(),
  size: z.number().int(),
  created_at: z.number().int(),
  created_by: z.string(),
});

export const ActivityResponse = z.object({
  id: z.string(),
  type: z.string(),
  actor_id: z.string().nullable(),
  node_id: z.string().nullable(),
  at: z.number().int(),
  details: z.record(z.string(), z.unknown()),
});

export const TrashResponse = pageOf(NodeResponse).extend({ retention_days: z.number().int() });

// ---- Sharing ----

export const GrantBody = z.object({
  user_id: z.string().min(1).max(100),
  role: z.enum(['viewer', 'editor']),
});

export const UserParams = z.object({ id: z.string().min(1).max(100), userId: z.string().min(1).max(100) });

export const LinkBody = z.object({
  password: z.string().max(256).nullable().optional().describe('null or "" removes it'),
  expires_at: z.number().int().positive().nullable().optional().describe('null never expires; a past time expires the link now'),
  allow_download: z.boolean().optional().describe('Default true'),
});

// No length limit here: a token of any form that opens nothing is an unknown link (404), which
// the public service decides.
export const TokenParam = z.object({ token: z.string().min(1) });
export const UnlockBody = z.object({ password: z.string().max(1024) });

export const PublicListQuery = PageQuery.extend({
  parent_id: z.string().max(100).optional().describe('A folder inside the shared one; default the shared folder itself'),
  sort: z.enum(['name', 'updated', 'created', 'size', 'taken']).optional(),
  order: z.enum(['asc', 'desc']).optional(),
  grant: z.string().max(300).optional().describe('Unlock grant of a password-protected link (or X-Share-Grant)'),
});

export const PublicNodeQuery = z.object({
  node_id: z.string().max(100).optional().describe('A node inside the shared folder; default the shared node'),
  grant: z.string().max(300).optional(),
  inline: z.enum(['0', '1', 'true', 'false']).optional(),
  size: z.enum(['512', '1024']).optional().describe('Thumbnail long edge'),
});

export const GrantQuery = z.object({ grant: z.string().max(300).optional() });

export const PermissionResponse = z.object({
  user_id: z.string(),
  name: z.string(),
  avatar_seed: z.string(),
  role: z.enum(['viewer', 'editor']),
  created_at: z.number().int(),
});

export const LinkResponse = z.object({
  id: z.string(),
  node_id: z.string(),
  token: z.string(),
  url: z.string().describe('The public page <origin>/s/<token>; the origin is PUBLIC_URL or the detected LAN address, never the request\'s Host'),
  expires_at: z.number().int().nullable(),
  password_protected: z.boolean(),
  allow_download: z.boolean(),
  active: z.boolean(),
  created_at: z.number().int(),
});

export const PublicNodeResponse = NodeResponse.omit({ owner_id: true }).describe(
  'A node as a link visitor sees it: no owner id; the shared root has parent_id null',
);

export const PublicShareResponse = z.object({
  node: PublicNodeResponse,
  owner_name: z.string(),
  allow_download: z.boolean(),
  expires_at: z.number().int().nullable(),
});

export const UnlockResponse = z.object({ grant: z.string(), expires_at: z.number().int() });

export const NodeAccessTokenResponse = z.object({
  access_token: z.string().describe("For ?access_token= on this node's download, thumbnail and preview only; refused anywhere else and as a bearer header"),
  expires_at: z.number().int().describe('Milliseconds since the epoch; a few minutes from now'),
});

// ---- Media ----

export const ThumbnailQuery = z.object({
  size: z.enum(['512', '1024']).optional().describe('Long edge in pixels: 512 (grid, default) or 1024 (full screen)'),
  v: z.coerce.number().int().optional().describe('The node version the client shows: a new version is a new URL (the answer is private and revalidated before each use all the same)'),
  access_token: z.string().optional().describe("For <img> elements, which cannot send headers: a token from POST /nodes/{id}/access-token for this node (never the session's own)"),
});

export const PreviewResponse = z.object({
  items: z.array(z.object({ node_id: z.string(), thumbnail_url: z.string() })).max(4),
});

// ---- Libraries ----

export const LibraryBody = z.object({
  name: z.string().max(200),
  path: z.string().min(1).max(4096).describe('A folder on a mounted drive (under the mounts root) or in the data folder'),
  make_default: z.boolean().optional(),
});

export const LibraryResponse = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['internal', 'external', 'network', 'pooled']),
  status: z.enum(['online', 'offline', 'ejected']),
  used: z.number().int(),
  free: z.number().int(),
  total: z.number().int(),
  content_bytes: z.number().int(),
  default: z.boolean(),
  path: z.string().optional().describe('Admins only'),
  members: z
    .array(z.object({ device: z.string(), uuid: z.string(), path: z.string().describe('Where the drive is mounted') }))
    .optional()
    .describe('Admins only, pools only: the drives it joins'),
});

// ---- Drives ----

export const FormatBody = z.object({
  filesystem: z.enum(['ext4', 'exfat']).describe('ext4 for this server; exFAT for a disk shared with other computers'),
  label: z.string().max(64).optional(),
  confirmation: z.string().max(300).describe('Exactly "FORMAT <device>", e.g. "FORMAT /dev/sdb"'),
});

const DriveResponse = z.object({
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
  uuid: z.string().nullable().describe('File system UUID'),
  library_id: z.string().nullable(),
});

export const MountBody = z.object({
  name: z.string().max(200).optional().describe("The library's name; the drive's label when absent"),
  make_default: z.boolean().optional(),
});

export const PoolBody = z.object({
  name: z.string().max(200),
  drive_ids: z.array(z.string().min(1).max(64)).min(2).max(8),
  make_default: z.boolean().optional(),
});

const Capability = z.object({ available: z.boolean(), reason: z.string().optional().describe('Why not, when not available') });

const FormatCapability = Capability.extend({
  filesystems: z
    .array(Capability.extend({ name: z.enum(['ext4', 'exfat']) }))
    .describe("Each file system an erase can write, and why not when this PC lacks its tool (exFAT needs exfatprogs); a format to one that is not available is 400 filesystem_unavailable"),
});

export const DrivesResponse = z.object({
  items: z.array(DriveResponse),
  helper_available: z.boolean(),
  capabilities: z.object({ format: FormatCapability, mount: Capability, pool: Capability }),
});

export const DriveContents = z
  .object({
    used: z.number().int().describe('Bytes in use on its file systems'),
    top_level: z.array(z.object({ name: z.string(), kind: z.enum(['folder', 'file']) })).describe('Up to 50 per file system, folders first'),
    files: z.number().int(),
    photos: z.number().int().describe('Files named as photos or videos'),
    complete: z.boolean().describe('False when counting stopped at its time limit: at least these many'),
  })
  .nullable()
  .describe('What a read-only look found on the drive; null when it could not look (no file system, encrypted, no right to mount)');

export const DriveDetailResponse = DriveResponse.extend({ contents: DriveContents });

export const FormatResponse = z.object({
  drive: DriveResponse,
  previous: z.object({ filesystem: z.string().nullable(), label: z.string().nullable(), uuid: z.string().nullable() }).describe('What was on it before'),
});

export const NetworkResponse = z.object({
  port: z.number().int(),
  addresses: z
    .array(
      z.object({
        address: z.string(),
        family: z.enum(['IPv4', 'IPv6']),
        interface: z.string().describe("The adapter's name as the OS reports it"),
        url: z.string().describe('What a phone on the same network opens'),
      }),
    )
    .describe('IPv4 first; no loopback, link-local or virtual adapters (containers, VMs, VPNs)'),
});
