/** Why the server would not start on a data folder; each says what the owner can do about it. */
export type StartRefusal =
  /** Another server (or this process) holds the data folder's lock. */
  | 'data_dir_in_use'
  /** The data folder's drive takes no file locks (a network share without them): a second server could not be kept out. */
  | 'data_dir_unlockable'
  /** hearth.db is missing or empty, and the folder shows that a database lived here. */
  | 'database_missing'
  /** hearth.db belongs to another Hearth install, or is younger than the files beside it. */
  | 'database_not_this_content'
  /** hearth.db is not a readable SQLite database. */
  | 'database_damaged'
  /** hearth.db has no account left while the libraries hold files. */
  | 'accounts_missing';

/**
 * The server refused to start because starting would lose or expose the family's files. Its
 * message is meant for the owner as it is (the headless CLI prints it without a stack trace,
 * the desktop app shows it), so it says what is wrong and how to put it right.
 */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';

  constructor(
    readonly reason: StartRefusal,
    message: string,
  ) {
    super(message);
  }
}

/** Where the owner reads how backups are made and put back. */
export const RESTORE_HELP = 'README, "Where the data lives, and backups"';
