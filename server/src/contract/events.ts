import type { BackupHealth, BackupRun } from './backup-responses.ts';
import type { FaceFinding } from './face-finding-responses.ts';
import type { Notification } from './notifications-responses.ts';
import type { CopyState, PlaybackQueue } from './playback-responses.ts';
import type { SettingsView, StorageState } from './server-responses.ts';

/**
 * Every event the WebSocket channel carries, with its payload. Later areas (nodes, uploads,
 * sharing, libraries) add their payloads here; the gateway forwards whatever the bus carries.
 */
export interface EventPayloads {
  'node.created': { node: unknown };
  'node.updated': { node: unknown };
  'node.moved': { node: unknown; from_parent_id: string | null };
  /**
   * `access_lost`: the node still exists but moved out of what this account may see (out of a
   * shared folder); `node` is as the account last saw it.
   */
  'node.deleted': { node: unknown; permanent: boolean; access_lost?: true };
  'node.restored': { node: unknown };
  'node.thumbnail_ready': { node: unknown };
  /** A video's playback copy is ready (or could not be made): a viewer waiting for it asks GET /nodes/{id}/playback again. */
  'node.playback_changed': { node_id: string; copy: CopyState };
  'upload.progress': { upload_id: string; offset: number; length: number | null };
  'quota.updated': { user_id: string; used: number; limit: number | null };
  'device.pending': {
    session_id: string;
    user_id: string;
    username: string;
    device_name: string | null;
    platform: string | null;
    pairing_code: string;
  };
  'device.approved': { session_id: string; user_id: string };
  'device.denied': { session_id: string; user_id: string };
  'share.received': { node: unknown; role: string };
  /**
   * Something about an album changed: its name or cover, what it holds (an item added or
   * removed, or trashed, restored or moved where it lives), or who it is shared with. Its owner
   * and members fetch it again; a new member hears of it this way too.
   */
  'album.changed': { album_id: string };
  /**
   * The album is gone for this account: its owner deleted it, or (`access_lost`) it still
   * exists but this account was removed from it or left it. Everything the account saw only
   * through it is out of reach from now on.
   */
  'album.deleted': { album_id: string; access_lost?: true };
  /**
   * A partner share started or changed its first day, or what it shows changed at once (its
   * owner trashed, restored or deleted a folder): the partner's timeline fetches again. Both
   * accounts hear it. One photo's changes come as node events, to the partners it is shown to.
   */
  'partner_share.changed': { owner_id: string; partner_id: string };
  /** The owner stopped sharing: the partner's timeline loses the owner's photos at once (`access_lost`, for the partner). */
  'partner_share.deleted': { owner_id: string; partner_id: string; access_lost?: true };
  /**
   * The account's own people changed: faces were found in one of its photos (`person_ids`: the
   * people they joined or left; empty when a photo had none, so People's progress moves on), or
   * someone was named, merged, hidden or had a face moved out. Only to the photos' owner: people
   * are each account's own. People fetches its list again.
   */
  'people.changed': { person_ids: string[] };
  /**
   * Who is in these photos changed (faces found, or a person in them named, merged, hidden or a
   * face moved out): a viewer showing one asks GET /photos/{id}/faces again. Each account hears
   * only of photos it may see (their owner, grantees, album members, partners), never of one in
   * the trash or Private.
   */
  'photo.faces': { node_ids: string[] };
  /** `removed` when the library was removed: clients drop it from their list. */
  'library.changed': { library: unknown; removed?: true };
  'server.settings_changed': { settings: SettingsView };
  /** The server's disk filled up, was made read-only, or takes writes again. */
  'server.storage': { storage: StorageState };
  'session.revoked': { session_id: string; reason: SessionRevokeReason };
  /** A backup or verify run moved on or ended (owners only); at most a few a second. */
  'backup.progress': { run: BackupRun };
  /** Whether backups are overdue changed (owners only): the console's header and the tray warn or stop warning. */
  'backup.health': { health: BackupHealth };
  /** The account was told something (or an album's new photos were told again): the bell counts it at once. Only to that account. */
  'notification.created': { notification: Notification; unread_count: number };
  /** Some were marked read (on another device too): the bell shows the new count. */
  'notification.read': { unread_count: number };
  /** The playback copies' queue moved on (owners only): a copy began or ended, or every few seconds while one is made. */
  'playback.queue': { queue: PlaybackQueue };
  /** Face finding moved on (owners only): at most every 5 s while photos are looked at, when it is done, and at a pause or a new speed. */
  'faces.progress': { finding: FaceFinding };
  /**
   * The first message of a socket opened with `?event_count=1`, and only there: the account's
   * event count as the socket began to hear its events. An answer whose Hearth-Event-Count is
   * lower was read before an event this socket will never carry (docs/api.md, Live events).
   */
  'socket.opened': { event_count: string };
}

export type SessionRevokeReason =
  'logout' | 'signed_out' | 'refresh_reuse' | 'password_changed' | 'password_reset' | 'account_disabled' | 'device_denied';

export type EventType = keyof EventPayloads;

/** The header of a signed-in read's answer that carries the account's event count (docs/api.md, Live events). */
export const EVENT_COUNT_HEADER = 'Hearth-Event-Count';

/** The message as it travels on the socket. */
export interface EventMessage<T extends EventType = EventType> {
  type: T;
  at: number;
  payload: EventPayloads[T];
}
