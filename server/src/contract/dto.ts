/** Shapes the API sends and receives, shared with the renderer. Times are ms since epoch. */

export type Role = 'admin' | 'member';

export interface UserSummary {
  id: string;
  username: string;
  role: Role;
  display_name: string | null;
  avatar_seed: string;
  must_change_password: boolean;
  totp_enabled: boolean;
}

export interface TokenResponse {
  access_token: string;
  refresh_token: string;
  expires_at: number;
  session_id: string;
  user: UserSummary;
}

export interface PendingResponse {
  status: 'pending';
  session_id: string;
  access_token: string;
  /** Six digits shown on the waiting device and beside its request in the console, to tell which is which. */
  pairing_code: string;
}

export interface StatusResponse {
  name: string;
  server_id: string;
  version: string;
  setup_required: boolean;
  /** Setup from this caller needs the code printed where the server was started. */
  setup_code_required: boolean;
  /** Setup happens in the desktop app's window on the PC; no browser can do it. */
  setup_in_desktop_app: boolean;
  require_device_approval: boolean;
  allow_self_registration: boolean;
  ready: boolean;
  /** Whether the server can save anything new: `full` or `read_only` say why not. */
  storage: StorageState;
}

/** A disk that takes writes, one that is full, or one the system made read-only. */
export type StorageState = 'ok' | 'full' | 'read_only';

export interface HealthResponse {
  status: 'ok' | 'failing';
  version: string;
  checks: { db: 'ok' | 'failing'; storage: StorageState | 'failing' };
}

export interface Quota {
  used: number;
  limit: number | null;
}

export interface Me extends UserSummary {
  quota: Quota;
}

export interface PublicUser {
  id: string;
  name: string;
  avatar_seed: string;
}

export interface AdminUser extends UserSummary {
  disabled: boolean;
  quota: Quota;
  created_at: number;
  /** The account first-run setup made (the owner of this PC's Hearth): other admins cannot switch it off, demote or reset it. */
  main_owner: boolean;
}

export type SessionStatus = 'pending' | 'active' | 'denied' | 'revoked';

export interface SessionInfo {
  id: string;
  device_name: string | null;
  platform: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  last_seen_at: number;
  approved_at: number | null;
  status: SessionStatus;
  current: boolean;
}

/** A session as the owner's console lists it: whose it is, besides the device. */
export interface AdminSession extends SessionInfo {
  user_id: string;
  username: string;
  display_name: string | null;
}

/** What the owner's console shows about the running server (admins only: paths are private). */
export interface AdminStatus {
  version: string;
  started_at: number;
  uptime_seconds: number;
  data_dir: string;
}

export interface PendingDevice {
  id: string;
  user_id: string;
  username: string;
  /** What the family calls the account's person; the console shows it on the request. */
  display_name: string | null;
  device_name: string | null;
  platform: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: number;
  pairing_code: string;
}

export interface Invite {
  id: string;
  role: Role;
  max_uses: number | null;
  uses: number;
  expires_at: number | null;
  created_at: number;
  created_by: string;
  /** Who it is for, as the owner wrote it ("Grandma"); null when none was given. */
  label: string | null;
  /** Present only in the response that creates the invite: the code is stored hashed. */
  code?: string;
  /** With the code: the web app's page that registers with it, on the server's public origin. */
  url?: string;
}

/** The settings as an account reads them: the editable ones, and where links open (set by PUBLIC_URL, not here). */
export interface SettingsView extends ServerSettings {
  link_reach: 'home_network' | 'internet';
}

export interface ServerSettings {
  server_name: string;
  allow_self_registration: boolean;
  require_device_approval: boolean;
  trash_retention_days: number;
  default_quota_bytes: number | null;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export type NodeType = 'folder' | 'file';
export type NodeColor = 'blue' | 'green' | 'orange' | 'red' | 'purple' | 'teal' | 'neutral';

export interface NodeDto {
  id: string;
  type: NodeType;
  name: string;
  parent_id: string | null;
  owner_id: string;
  size: number;
  mime_type: string | null;
  created_at: number;
  updated_at: number;
  color: NodeColor | null;
  starred: boolean;
  /** True when the node belongs to another account that shared it (or a folder above it) with the reader. */
  shared: boolean;
  trashed_at: number | null;
  version: number;
  has_thumbnail: boolean;
  /** Media fields: present only once the server has processed an image or video. */
  image_width?: number;
  image_height?: number;
  taken_at?: number;
}

export interface VersionDto {
  id: string;
  version: number;
  size: number;
  created_at: number;
  created_by: string;
}

export interface ActivityDto {
  id: string;
  type: string;
  actor_id: string | null;
  node_id: string | null;
  at: number;
  details: Record<string, unknown>;
}

/** GET /nodes/gallery/months: the gallery's months, newest first, with what each holds. */
export interface GalleryMonths {
  items: { month: string; photos: number; videos: number }[];
}

export interface TrashPage extends Page<NodeDto> {
  retention_days: number;
}

export interface PermissionDto {
  user_id: string;
  name: string;
  avatar_seed: string;
  role: 'viewer' | 'editor';
  created_at: number;
}

export interface ShareLinkDto {
  id: string;
  node_id: string;
  token: string;
  url: string;
  expires_at: number | null;
  password_protected: boolean;
  allow_download: boolean;
  active: boolean;
  created_at: number;
}

/**
 * A node as a visitor of a public link sees it: no owner id (an account id is for the family,
 * not the Internet), and the shared root has no parent (what is above it is not shared).
 */
export type PublicNodeDto = Omit<NodeDto, 'owner_id'>;

export interface PublicShareDto {
  node: PublicNodeDto;
  owner_name: string;
  allow_download: boolean;
  expires_at: number | null;
}

export interface LibraryDto {
  id: string;
  name: string;
  kind: 'internal' | 'external' | 'network' | 'pooled';
  status: 'online' | 'offline' | 'ejected';
  /** Bytes in use on the library's file system (0 while it is not online). */
  used: number;
  free: number;
  total: number;
  /** Bytes of this server's file content stored on it. */
  content_bytes: number;
  default: boolean;
  /** Only for admins. */
  path?: string;
  /** Only for admins, and only for a pool: the drives it joins. */
  members?: { device: string; uuid: string; path: string }[];
}

export interface DriveDto {
  id: string;
  device: string;
  description: string;
  model: string | null;
  /** Who made it ("SanDisk"), where the system says; a partition has its disk's. */
  vendor: string | null;
  /** How its disk is connected ("usb", "sata", "nvme"), null when the system does not say. */
  transport: string | null;
  /** A whole disk, a partition of one, or a disk image (a file presented as a disk). */
  kind: 'disk' | 'partition' | 'image';
  size: number;
  removable: boolean;
  /** Holds the operating system or the server's data: never formatted. */
  system: boolean;
  in_use: boolean;
  usable: boolean;
  mountpoints: string[];
  filesystem: string | null;
  label: string | null;
  /** The file system's UUID: how the server finds the drive again whatever its device name. */
  uuid: string | null;
  library_id: string | null;
}

/** What a read-only look found on a drive (for the erase dialog): null where it could not look. */
export interface DriveContents {
  /** Bytes in use on its file systems. */
  used: number;
  /** The top-level folders and files (up to 50 per file system), folders first. */
  top_level: { name: string; kind: 'folder' | 'file' }[];
  files: number;
  /** Files named as photos or videos. */
  photos: number;
  /** False when the count stopped at its time limit: there are at least this many. */
  complete: boolean;
}

/** One of this machine's addresses on the home network, and the address a phone opens. */
export interface LanAddressDto {
  address: string;
  family: 'IPv4' | 'IPv6';
  /** The adapter's name as the OS reports it (`eth0`, `wlp2s0`, `Wi-Fi`). */
  interface: string;
  url: string;
}
