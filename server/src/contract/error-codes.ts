/**
 * The one catalogue of error codes: every error the API answers carries one of these codes,
 * and this table is the only place that decides its HTTP status. Clients branch on `code`.
 */
export const ERROR_CATALOGUE = {
  // Request shape
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_input: { status: 400, message: 'A field has a value of the wrong type or form.' },
  missing_field: { status: 400, message: 'A required field is missing.' },
  invalid_cursor: { status: 400, message: 'The paging cursor is not valid.' },
  invalid_username: {
    status: 400,
    message: 'Usernames are 3 to 32 characters of letters, digits, dot, dash or underscore.',
  },
  weak_password: { status: 400, message: 'Passwords are 10 to 256 characters long.' },
  hash_algorithm_unsupported: { status: 400, message: 'Files are checked by their SHA-256: send algorithm "sha256".' },
  hash_count_out_of_range: { status: 400, message: 'Check between 1 and 1,000 hashes at a time.' },
  invalid_hash: { status: 400, message: 'A SHA-256 is 64 lowercase hexadecimal characters.' },
  invalid_invite: { status: 400, message: 'This invite code is unknown, used up or expired.' },
  cannot_share_with_owner: { status: 400, message: 'The owner already has access.' },
  unknown_user: { status: 400, message: 'There is no such account.' },
  cannot_share_with_self: { status: 400, message: 'Your own photos are in your Photos already: choose someone else.' },
  push_endpoint_refused: {
    status: 400,
    message: 'This browser’s push service is not one Hearth sends to: notifications still show in the app.',
  },
  not_media: { status: 400, message: 'Only photos and videos go into albums.' },
  invalid_album_name: { status: 400, message: 'An album name is 1 to 100 characters, with no control characters.' },
  invalid_name: { status: 400, message: 'That name cannot be used.' },
  too_many_files: { status: 400, message: 'A zip holds at most 20,000 files and folders: download fewer at a time.' },
  name_too_long: {
    status: 400,
    message: 'A file or folder name is at most 255 bytes of UTF-8: 255 plain letters, fewer with accents, other scripts or emoji.',
  },
  invalid_range: { status: 416, message: 'The requested range is outside the file.' },
  invalid_totp_code: { status: 400, message: 'That code does not match the authenticator.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Send the request body as application/json.' },
  invalid_encoding: { status: 400, message: 'The request body does not decompress with its Content-Encoding.' },
  malformed_request: { status: 400, message: 'The request is not valid HTTP/1.1.' },
  headers_too_large: { status: 431, message: 'The request line or headers are too large.' },
  expectation_failed: { status: 417, message: 'Only Expect: 100-continue is supported.' },
  http_version_unsupported: { status: 505, message: 'This server speaks HTTP/1.1.' },
  request_timeout: { status: 408, message: 'The request took too long to arrive.' },
  invalid_handshake: { status: 400, message: 'This is not a valid WebSocket handshake.' },
  websocket_version_unsupported: { status: 426, message: 'This server speaks WebSocket version 13.' },

  // Authentication
  unauthorized: { status: 401, message: 'Sign in to continue.' },
  invalid_token: { status: 401, message: 'The access token is invalid or has expired.' },
  invalid_credentials: { status: 401, message: 'The username or password is wrong.' },
  totp_required: { status: 401, message: 'Enter the code from your authenticator app.' },
  invalid_refresh_token: { status: 401, message: 'The refresh token is unknown or expired.' },
  refresh_token_reused: {
    status: 401,
    message: 'This refresh token was already used; the session has been signed out for safety.',
  },

  // The owner's way in: first-run setup and recovery at the PC
  setup_code_required: { status: 403, message: 'Enter the setup code shown where Hearth was started on its PC.' },
  invalid_setup_code: { status: 403, message: 'That setup code is not right. Check the code shown where Hearth was started.' },
  setup_in_app: { status: 403, message: 'Finish setting up Hearth in its app, on the PC where it is installed.' },
  invalid_recovery_code: { status: 400, message: 'That recovery code is not right, or it was used already. Make a new one at the PC.' },
  recovery_code_expired: { status: 410, message: 'That recovery code has expired (codes work for 15 minutes). Make a new one at the PC.' },
  owner_account: {
    status: 409,
    message:
      'This is the account of the owner of this PC: it cannot be switched off, made a family member, or given a new password by someone else.',
  },

  // Permission
  forbidden: { status: 403, message: 'You do not have permission to do that.' },
  system_drive: { status: 403, message: "This drive holds the operating system or the server's data and is never formatted." },
  share_password_required: { status: 401, message: 'This link is protected by a password.' },
  download_disabled: { status: 403, message: 'The owner turned downloads off for this link.' },
  pending_approval: {
    status: 403,
    message: 'This device is waiting for approval; only its status can be read.',
  },
  device_denied: { status: 403, message: 'This device was refused.' },
  must_change_password: { status: 403, message: 'Choose a new password before continuing.' },
  invite_required: { status: 403, message: 'An invite code is needed to register.' },
  wrong_password: { status: 403, message: 'The current password is wrong.' },
  private_locked: { status: 403, message: 'Private is locked. Open it with your password or PIN.' },
  wrong_pin: { status: 403, message: 'That PIN is wrong.' },
  invalid_pin: { status: 400, message: 'A PIN is 4 to 8 digits.' },
  no_pin: { status: 409, message: 'No PIN is set for Private: use your password.' },
  account_disabled: { status: 403, message: 'This account is disabled.' },
  not_your_album_item: {
    status: 403,
    message: 'Someone else added this to the album: only they or the owner of the album can take it out.',
  },
  undo_too_late: {
    status: 410,
    message: 'It is too late to undo that. Share the album with them again: they can add their photos again.',
  },
  invalid_rotation: { status: 400, message: 'A photo turns a quarter at a time: 0, 90, 180 or 270 degrees.' },
  cannot_rotate_video: { status: 400, message: 'Only photos can be turned; a video plays the way it was filmed.' },
  taken_in_future: { status: 400, message: 'That date has not happened yet: choose a day up to today.' },
  place_out_of_range: {
    status: 400,
    message: 'That place is not on the map: latitude goes from -90 to 90 and longitude from -180 to 180.',
  },
  unknown_place: { status: 400, message: 'No town of that name is known here: try the name of the nearest town.' },
  not_a_photo: { status: 400, message: 'Only photos and videos have a date and place to correct.' },
  https_required: {
    status: 403,
    message:
      'Away from home, a drive signs in over https only, so its password never crosses the Internet readable: use the https address shown in Account, under "Use Hearth as a drive".',
  },
  shared_view_only: {
    status: 403,
    message:
      'This was shared with you to view only: you can open it and copy it to your own files, not change it. Ask its owner to let you edit.',
  },
  shared_with_me_read_only: {
    status: 403,
    message: 'The folder "Shared with me" lists what others share with you: nothing can be added, renamed or removed there.',
  },
  move_across_owners: {
    status: 403,
    message: "Files move only within their owner's files: copy it instead, and the original stays where it is.",
  },
  album_viewer: { status: 403, message: 'Only the people who can add to this album may do that: ask its owner.' },
  share_from_other_site: {
    status: 403,
    message: "Another website tried to send files to Hearth's Share target: Hearth takes shares from this device's Share menu only.",
  },

  // Resources and state
  not_found: { status: 404, message: 'Nothing was found here.' },
  no_thumbnail: { status: 404, message: 'There is no thumbnail for this item (yet).' },
  playback_copy_not_ready: { status: 404, message: 'This video has no playback copy (yet): see GET /nodes/{id}/playback.' },
  https_off: { status: 404, message: 'HTTPS is turned off on this server (HTTPS=0).' },
  method_not_allowed: { status: 405, message: 'This method is not allowed here.' },
  already_set_up: { status: 409, message: 'The server is already set up.' },
  username_taken: { status: 409, message: 'That username is taken.' },
  display_name_taken: { status: 409, message: 'Another account already goes by that name; choose one that cannot be mistaken for it.' },
  tokens_already_issued: {
    status: 409,
    message: "This device's tokens were already handed over once; sign in again if they were lost.",
  },
  totp_already_enabled: { status: 409, message: 'Two-factor sign-in is already on.' },
  totp_not_enabled: { status: 409, message: 'Two-factor sign-in is not on.' },
  totp_not_started: { status: 409, message: 'Start two-factor enrollment first.' },
  last_admin: { status: 409, message: 'The server needs at least one active admin.' },
  too_many_drive_passwords: {
    status: 409,
    message: 'An account has at most 20 drive passwords: revoke one that is no longer used, then make the new one.',
  },
  album_item_not_yours: {
    status: 409,
    message:
      'Someone you shared this photo with put it in that album, so only the people you shared it with see it there and its links never do: take it out, or add it to the album yourself.',
  },
  not_pending: { status: 409, message: 'This device is no longer waiting for approval.' },
  offset_mismatch: { status: 409, message: 'Upload-Offset does not match the bytes received so far.' },
  name_conflict: { status: 409, message: 'Something with that name is already there.' },
  invalid_move: { status: 409, message: 'A folder cannot move into itself or a folder inside it.' },
  in_trash: { status: 409, message: 'Restore this item from the trash first.' },
  not_in_trash: { status: 409, message: 'This item is not in the trash.' },
  already_yours: { status: 409, message: 'This is yours already: it is in your own files.' },
  idempotency_conflict: {
    status: 409,
    message: 'This Idempotency-Key was already used for a different request.',
  },
  share_expired: { status: 410, message: 'This link has expired.' },
  download_expired: {
    status: 410,
    message: 'This download link was used already or has expired (they work once, for a minute): start the download again.',
  },
  already_registered: { status: 409, message: 'That folder is already a library, or inside or around one.' },
  library_is_default: { status: 409, message: 'Choose another library for new files before ejecting this one.' },
  library_busy: { status: 409, message: 'The drive is in use and could not be unmounted; close what uses it and try again.' },
  drive_in_use: { status: 409, message: 'A library on this drive is in use; eject it first.' },
  drive_operation_running: { status: 409, message: 'Another drive operation is running; wait for it to finish.' },
  drive_busy: { status: 409, message: 'The drive is in use and could not be unmounted.' },
  no_filesystem: { status: 409, message: 'The drive has no file system the server can use: format it first.' },
  foreign_library: { status: 409, message: 'The drive holds a library of another Hearth server; it is left untouched.' },
  mount_failed: { status: 409, message: 'The drive could not be mounted.' },
  uploads_in_progress: { status: 409, message: 'Uploads to this library are still in progress.' },
  cannot_eject_internal: { status: 409, message: 'The library inside the data folder cannot be ejected.' },
  cannot_remove_internal: { status: 409, message: 'The library inside the data folder cannot be removed.' },
  playback_copies_on: {
    status: 409,
    message: 'Switch off making playback copies before removing them: they would only be made again.',
  },
  library_not_empty: {
    status: 409,
    message: 'Files (or old versions, or items in the trash) are stored on this library; delete them for good before removing it.',
  },
  folder_not_empty: {
    status: 409,
    message:
      'The folder holds files already: choose an empty folder, or mount the drive from the drives page (its files stay where they are; Hearth keeps its own in a Hearth folder).',
  },
  confirmation_mismatch: { status: 400, message: 'Type the confirmation exactly as shown: FORMAT followed by the device.' },
  invalid_library_path: { status: 400, message: 'Libraries are folders on a mounted drive or in the data folder.' },
  invalid_destination: {
    status: 400,
    message: 'Backups go to an existing folder the server can write to, outside the data folder and every library.',
  },
  backup_not_found: { status: 400, message: 'There is no Hearth backup in that folder.' },
  backup_key_required: { status: 400, message: 'This backup needs the key from its emergency kit: it decrypts and proves the backup.' },
  backup_key_wrong: { status: 400, message: 'That key does not open this backup. Use the emergency kit of the server that made it.' },
  snapshot_not_found: { status: 404, message: 'That snapshot is not in this backup.' },
  snapshot_unproved: {
    status: 409,
    message:
      "This snapshot is not signed with this server's backup key: someone else put it there or changed it, or another emergency kit made it. Hearth does not use it.",
  },
  backup_unsigned: {
    status: 409,
    message: 'This snapshot was made by an earlier version of Hearth, before backups were signed: nothing proves nobody changed it.',
  },
  restore_running: { status: 409, message: 'A restore from a backup is under way; wait for it to finish.' },
  backup_unreachable: { status: 503, message: 'The backup cannot be read now: its drive is not connected or not readable.' },
  backup_damaged: { status: 409, message: 'This snapshot is damaged in the backup and cannot be read. Choose another date.' },
  backup_running: { status: 409, message: 'A backup or a check is running; wait for it to finish.' },
  destination_unsafe: {
    status: 409,
    message:
      'The backup folder holds something Hearth did not put there (a link to another place, a pipe or a device): Hearth does not follow it, so it does not back up, read or restore there.',
  },
  upload_expired: { status: 410, message: 'This upload expired; start it again.' },
  tus_version_unsupported: { status: 412, message: 'Send Tus-Resumable: 1.0.0.' },
  if_condition_failed: { status: 412, message: 'The conditions of the If header do not hold.' },
  checksum_mismatch: { status: 460, message: 'The data does not match its Upload-Checksum; send it again.' },
  checksum_algorithm_unsupported: { status: 400, message: 'Upload-Checksum supports sha1 and sha256.' },
  upgrade_required: { status: 426, message: 'This endpoint speaks WebSocket only.' },
  misdirected_request: {
    status: 421,
    message: 'This server does not answer to that host name. Use its address, localhost, a .local name, or a name set in HOST_NAMES.',
  },

  // Limits
  quota_exceeded: { status: 507, message: 'There is not enough storage left in this account.' },
  storage_full: {
    status: 507,
    message:
      "The server's disk is full: nothing new can be saved until space is freed. Everything already saved is safe and can still be opened.",
  },
  rate_limited: { status: 429, message: 'Too many attempts. Try again later.' },
  slow_down: { status: 429, message: 'Polling too fast. Wait a few seconds between requests.' },
  too_many_downloads: {
    status: 429,
    message: 'Too many downloads are running at once from here (or through this link). Wait for one to finish, then try again.',
  },
  busy: { status: 503, message: 'Too many passwords are being checked right now. Try again in a moment.' },

  // Server
  internal: { status: 500, message: 'Something went wrong on the server.' },
  unavailable: { status: 503, message: 'The server is not ready.' },
  format_failed: { status: 500, message: 'The drive was not formatted: its file system is the same as before.' },
  helper_unavailable: { status: 503, message: 'The server has no way to mount drives here: run it as root or install udisks2.' },
  pool_unavailable: { status: 503, message: 'Pooling drives needs mergerfs: install it (sudo apt install mergerfs).' },
  filesystem_unavailable: {
    status: 400,
    message: 'This computer cannot make that kind of drive: choose another file system, or install its tools.',
  },
  library_offline: { status: 503, message: 'The drive holding this file is not connected.' },
  storage_read_only: {
    status: 503,
    message:
      "The server's disk can only be read right now (the system made it read-only, usually after a disk error): nothing new can be saved.",
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; field?: string };
}
