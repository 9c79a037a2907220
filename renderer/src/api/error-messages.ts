import type { ErrorCode } from '../../../server/src/contract/error-codes.ts';
import { tooManyTries } from './tryAgain.ts';

/** An answer of the API that was not a success, with the server's code to branch on. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network' | 'unknown',
    readonly serverMessage: string,
    readonly field?: string,
    readonly retryAfterSeconds?: number,
  ) {
    // Too many tries says how long, from Retry-After: "wait a little" leaves a person guessing.
    super(code === 'rate_limited' ? tooManyTries(retryAfterSeconds) : humanMessage(code, serverMessage));
    this.name = 'ApiError';
  }
}

/** Reads the error envelope of a failed response; anything else becomes a plain `unknown` error. */
export async function errorOf(response: Response, body?: unknown): Promise<ApiError> {
  let envelope = body;
  if (envelope === undefined) {
    try {
      envelope = await response.clone().json();
    } catch {
      envelope = undefined;
    }
  }
  const error = (envelope as { error?: { code?: string; message?: string; field?: string } } | undefined)?.error;
  const retryAfter = Number(response.headers.get('Retry-After'));
  const code = error?.code && error.code in SENTENCES ? (error.code as ErrorCode) : 'unknown';
  return new ApiError(
    response.status,
    code,
    error?.message ?? response.statusText,
    error?.field,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
  );
}

export function networkError(): ApiError {
  return new ApiError(0, 'network', 'The server could not be reached.');
}

/** What a person reads: a plain sentence for every code the server can answer. */
export function humanMessage(code: ApiError['code'], fallback = ''): string {
  if (code === 'network') return "Can't reach the server. Check that this phone is on the home Wi-Fi.";
  if (code === 'unknown') return fallback || 'Something went wrong. Try again.';
  return SENTENCES[code];
}

/*
 * Keyed by the server's catalogue: a new code without a sentence here fails the build.
 * Protocol-level codes a person never causes still get a sentence that says what to do.
 */
const SENTENCES: Record<ErrorCode, string> = {
  invalid_json: 'The app sent something the server did not understand. Reload the page and try again.',
  invalid_input: 'Something in the form is not right. Check it and try again.',
  missing_field: 'Please fill in every field.',
  invalid_cursor: 'The list changed while loading. Reload to see it again.',
  invalid_username: 'A username is 3 to 32 characters: letters a–z, digits, dots (.), dashes (-) or underscores (_).',
  weak_password: 'Passwords need at least 10 characters.',
  invalid_invite: 'This invite is unknown, used up or expired. Ask for a new one.',
  cannot_share_with_owner: 'That person owns it already.',
  unknown_user: 'There is no such person on this server.',
  cannot_share_with_self: 'Your own photos are in your Photos already. Choose someone else.',
  push_endpoint_refused: 'This browser’s push service is not one Hearth sends to. Notifications still show in the app.',
  not_media: 'Only photos and videos can go into an album.',
  too_many_files: 'That is too many to download at once (at most 20,000). Choose fewer and download them in parts.',
  invalid_album_name: 'Give the album a name of up to 100 letters.',
  invalid_name: "That name can't be used. Avoid slashes, invisible characters and text-direction marks.",
  name_too_long: 'That name is too long. A name can hold up to 255 plain letters (fewer with accents or emoji): shorten it.',
  invalid_range: 'That part of the file does not exist.',
  invalid_totp_code: "That code doesn't match. Check the time on your phone and try the newest code.",
  payload_too_large: 'That is too large to send.',
  unsupported_media_type: 'The app sent something the server did not understand. Reload the page and try again.',
  invalid_encoding: 'The app sent something the server did not understand. Reload the page and try again.',
  malformed_request: 'The app sent something the server did not understand. Reload the page and try again.',
  headers_too_large: 'The app sent something the server did not understand. Reload the page and try again.',
  expectation_failed: 'The app sent something the server did not understand. Reload the page and try again.',
  http_version_unsupported: 'The app and the server disagree. Reload the page.',
  request_timeout: 'The connection was too slow. Check the Wi-Fi and try again.',
  invalid_handshake: 'Live updates could not start. Reload the page.',
  websocket_version_unsupported: 'Live updates need a newer browser.',
  unauthorized: 'Please sign in again.',
  invalid_token: 'Your sign-in expired. Please sign in again.',
  invalid_credentials: 'That username or password is not right.',
  totp_required: 'Enter the 6-digit code from your authenticator app.',
  invalid_refresh_token: 'Your sign-in expired. Please sign in again.',
  refresh_token_reused: 'For your safety you were signed out. Please sign in again.',
  setup_code_required: 'Enter the setup code. It is shown on the PC where Hearth was started, next to "Finish setup at".',
  invalid_setup_code: 'That setup code is not right. Check the code shown on the PC where Hearth was started.',
  setup_in_app: 'Finish setting up Hearth in the Hearth app, on the PC where it is installed.',
  invalid_recovery_code: 'That recovery code is not right, or it was already used. Make a new one at the PC.',
  recovery_code_expired: 'That recovery code has expired: codes work for 15 minutes. Make a new one at the PC.',
  owner_account: "This is the PC owner's own account: it stays switched on and an owner, and only they can change its password.",
  forbidden: "You don't have permission to do that.",
  system_drive: 'This drive holds the system or Hearth itself and is never erased.',
  share_from_other_site: 'Another website tried to send files to Hearth. Hearth only takes what you share from this phone’s Share menu.',
  share_password_required: 'This link is protected by a password.',
  download_disabled: 'The owner turned off downloads for this link.',
  pending_approval: 'This device is still waiting to be approved.',
  device_denied: 'This device was not allowed in.',
  must_change_password: 'Choose a new password before you continue.',
  invite_required: 'You need an invite to create an account here.',
  wrong_password: 'That password is not right.',
  private_locked: 'Private is locked. Open it with your password or PIN.',
  wrong_pin: 'That PIN is not right.',
  invalid_pin: 'A PIN is 4 to 8 digits.',
  no_pin: 'You have not set a PIN yet. Use your password.',
  account_disabled: 'This account is switched off. Ask the owner of the server.',
  undo_too_late: 'It is too late to undo that. Share the album with them again: they can add their photos again.',
  invalid_rotation: 'A photo turns a quarter at a time.',
  cannot_rotate_video: 'Only photos can be turned; a video plays the way it was filmed.',
  taken_in_future: 'That date has not happened yet: choose a day up to today.',
  place_out_of_range: 'That place is not on the map: latitude goes from -90 to 90 and longitude from -180 to 180.',
  unknown_place: 'No town of that name is known here: try the name of the nearest town.',
  not_a_photo: 'Only photos and videos have a date and place to correct.',
  not_your_album_item: 'Someone else added that one: only they or the owner of the album can take it out.',
  album_viewer: 'You can look at this album but not add to it. Ask its owner if you want to add photos.',
  album_item_not_yours:
    'Someone you shared this photo with put it in that album, so its link cannot show it. Take it out, or add it to the album yourself.',
  not_found: "It isn't there any more, or you don't have access to it.",
  no_thumbnail: 'There is no preview for this yet.',
  playback_copy_not_ready: 'This video is still being prepared for this browser.',
  https_off: 'This Hearth does not offer a private (HTTPS) connection: its owner turned it off.',
  method_not_allowed: 'The app asked for something the server does not do. Reload the page.',
  already_set_up: 'This server is already set up. Sign in instead.',
  username_taken: 'That username is taken. Try another.',
  display_name_taken: "Someone else already goes by that name. Pick one that can't be mistaken for theirs.",
  tokens_already_issued: 'This device was already let in once. Sign in again.',
  totp_already_enabled: 'Two-step sign-in is already on.',
  totp_not_enabled: 'Two-step sign-in is not on.',
  totp_not_started: 'Start setting up two-step sign-in again.',
  last_admin: 'The server needs at least one owner account.',
  // The drive door's (WebDAV) own: a drive shows them, the app never causes them.
  if_condition_failed: 'This file changed on another computer meanwhile. Open it again.',
  https_required: 'Away from home, a drive connects over https only: use the https address shown here.',
  shared_view_only: 'This was shared with you to look at only. Copy it to your own files to change it.',
  shared_with_me_read_only: '“Shared with me” lists what others share with you: nothing can be added or removed there.',
  move_across_owners: 'Files move only within their owner’s files. Copy it instead.',
  too_many_drive_passwords: 'You have 20 drive passwords already. Revoke one you no longer use, then make the new one.',
  not_pending: 'This device is no longer waiting.',
  offset_mismatch: 'The upload got out of step. It will start that file again.',
  name_conflict: 'Something with that name is already there. Pick another name.',
  invalid_move: "A folder can't go inside itself.",
  in_trash: 'Restore it from the trash first.',
  not_in_trash: 'It is not in the trash.',
  already_yours: 'This is yours already: it is in your own files.',
  idempotency_conflict: 'That was already done. Reload to see it.',
  share_expired: 'This link has expired. Ask the person who sent it for a new one.',
  download_expired: 'That download did not start in time. Try Download again.',
  already_registered: 'That folder is already used for storage.',
  library_is_default: 'Choose another place for new files before ejecting this one.',
  library_busy: 'The drive is in use. Close what uses it and try again.',
  drive_in_use: 'A drive in this set is in use. Eject it first.',
  drive_operation_running: 'Another drive job is running. Wait for it to finish.',
  drive_busy: 'The drive is in use.',
  no_filesystem: 'The drive needs to be formatted first.',
  foreign_library: 'This drive belongs to another Hearth server and was left untouched.',
  mount_failed: "The drive couldn't be opened.",
  uploads_in_progress: 'Uploads to this drive are still running.',
  cannot_eject_internal: "The built-in storage can't be ejected.",
  cannot_remove_internal: "The built-in storage can't be removed.",
  playback_copies_on: 'Switch off making copies first, or they would be made again.',
  library_not_empty: 'This drive still holds files (or old versions, or trash).',
  folder_not_empty: 'That folder already holds files. Choose an empty one.',
  confirmation_mismatch: 'Type the words exactly as shown.',
  invalid_library_path: 'Choose a folder on a connected drive.',
  invalid_destination: 'Choose a folder on another drive: not inside the Hearth data folder or a storage place.',
  backup_unreachable: 'The backup cannot be read right now. Is its drive connected?',
  backup_damaged: 'This backup is damaged and cannot be read. Choose another date.',
  backup_running: 'A backup or a check is running. Wait for it to finish, then try again.',
  destination_unsafe:
    'Someone put a link or another odd item in this backup folder. Hearth did not follow it. Remove it, or choose another folder.',
  backup_not_found: 'There is no Hearth backup in that folder. Check the path, and that its drive is connected.',
  backup_key_required: 'This backup needs the key from its emergency kit.',
  backup_key_wrong: 'That key does not open this backup. Use the emergency kit of the server that made it.',
  snapshot_not_found: 'That backup is no longer in the folder. Choose another one.',
  snapshot_unproved: 'This backup was not made by this server, or someone changed it. Hearth will not use it: choose another date.',
  backup_unsigned: 'This backup was made by an earlier Hearth and cannot be proved untouched. Confirm you trust it to restore it.',
  restore_running: 'A restore from a backup is under way. Wait for it to finish.',
  upload_expired: 'This upload waited too long. Choose the file again.',
  tus_version_unsupported: 'The app and the server disagree about uploads. Reload the page.',
  checksum_mismatch: 'Part of the file arrived damaged. It will be sent again.',
  checksum_algorithm_unsupported: 'The app and the server disagree about uploads. Reload the page.',
  hash_algorithm_unsupported: 'The app and the server disagree about how to recognise photos already here. Reload the page.',
  hash_count_out_of_range: 'The app asked about too many photos at once. Reload the page and try again.',
  invalid_hash: 'The app could not recognise one of the photos. Reload the page and try again.',
  upgrade_required: 'The app and the server disagree. Reload the page.',
  misdirected_request: "Hearth doesn't answer at this address. Open it by the address shown on the Hearth computer.",
  quota_exceeded: 'Not enough space left in your storage for this. Delete something (and empty the trash) or ask for more space.',
  storage_full:
    "The Hearth computer's disk is full, so nothing new can be saved right now. Everything already there is safe. Files waiting to upload continue by themselves once space is freed.",
  rate_limited: 'Too many tries. Wait a few minutes, then try again: the right password will work then.',
  slow_down: 'Waiting a moment before asking again.',
  too_many_downloads: 'Too many downloads are running at once. Wait for one to finish, then try again.',
  busy: 'The server is busy right now. Try again in a moment.',
  internal: 'Something went wrong on the server. Try again.',
  unavailable: 'The server is starting up. Try again in a moment.',
  format_failed: 'The drive was not erased: nothing changed on it. Try again.',
  helper_unavailable: "This computer doesn't allow Hearth to manage drives.",
  pool_unavailable: 'This computer lacks the tool Hearth needs to combine drives (mergerfs): whoever looks after it can install it.',
  filesystem_unavailable: 'This computer cannot prepare a drive that way. Choose the other kind, or install its tools.',
  library_offline: 'The drive holding this file is not connected. Plug it back in at the Hearth computer.',
  storage_read_only:
    "The Hearth computer's disk can only be read right now, so nothing new can be saved. Everything already there can still be opened. The owner should check the disk.",
};

/** A code the server sent (or the desktop app relayed from it), as the app knows it. */
export function knownCode(code: string | undefined): ErrorCode | 'unknown' {
  return code !== undefined && code in SENTENCES ? (code as ErrorCode) : 'unknown';
}
