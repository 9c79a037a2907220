/**
 * `npm run owner -- reset`: the owner's way back in, for whoever is at the PC. It makes a
 * one-time recovery code (valid 15 minutes) that the sign-in page's "Owner locked out?" takes
 * with a new password. Run it with the same DATA_DIR as the server, whether the server runs or
 * not: it opens the database (WAL, with a busy timeout, as safe beside the running server as
 * any of its requests) and writes one row. It never creates, migrates or locks the data
 * folder: the folder's lock keeps out a second server, not this.
 */
import fs from 'node:fs';
import path from 'node:path';
import { configFromEnv, resolveConfig } from '../server/src/config.ts';
import { isBusy, openConnection, type Db } from '../server/src/store/database/db.ts';
import { OwnerRepo } from '../server/src/store/database/owner.repo.ts';
import { makeOwnerRecoveryCode, OWNER_RECOVERY_TTL_MS } from '../server/src/services/identity/owner-recovery.ts';

const USAGE = `Usage: npm run owner -- <command>

Commands:
  reset   Make a one-time recovery code for the owner of this Hearth. On the sign-in
          page, "Owner locked out?" takes it with a new password and signs the owner in
          (no approval needed); the owner's other devices are signed out. The code works
          once, for ${OWNER_RECOVERY_TTL_MS / 60_000} minutes; a newer code replaces it.
  help    Show this.

Run it on the PC where Hearth runs, with the same DATA_DIR as the server (the server may be
running). For the desktop app, its data folder is data/ in the app's folder:
  Linux ~/.config/Hearth/data, Windows %APPDATA%\\Hearth\\data,
  macOS ~/Library/Application Support/Hearth/data
(no terminal needed there: the tray menu's "Owner locked out? Make a recovery code…" does the same).
`;

/** A problem the person running this can act on: said in one plain paragraph, exit code 1. */
class Refusal extends Error {}

function main(args: string[]): number {
  const [command, ...rest] = args;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command !== 'reset' || rest.length > 0) {
    process.stderr.write(`Unknown command: ${args.join(' ')}\n\n${USAGE}`);
    return 2;
  }
  try {
    reset(dataDir());
    return 0;
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 1;
  }
}

function dataDir(): string {
  try {
    return resolveConfig(configFromEnv()).dataDir;
  } catch (error) {
    throw new Refusal(`The environment is not right: ${(error as Error).message}`);
  }
}

function reset(dir: string): void {
  const file = path.join(dir, 'hearth.db');
  const elsewhere = 'Run this with the DATA_DIR the server uses, for example:\n  DATA_DIR=/srv/hearth/data npm run owner -- reset';
  if (!fs.existsSync(file) || fs.statSync(file).size === 0) {
    throw new Refusal(`There is no Hearth database in ${dir} (no hearth.db there).\n${elsewhere}`);
  }
  const db = open(file, elsewhere);
  try {
    const owners = new OwnerRepo(db);
    const owner = owners.findOwner();
    if (owner === undefined) {
      throw new Refusal(
        `Hearth in ${dir} is not set up yet: there is no owner account to recover.\nOpen Hearth in a browser on this PC and create the owner's account there.`,
      );
    }
    let made: ReturnType<typeof makeOwnerRecoveryCode>;
    try {
      made = db.transaction(() => makeOwnerRecoveryCode(owners, Date.now()));
    } catch (error) {
      if (isBusy(error)) throw serverHasIt(dir);
      throw error;
    }
    const { code, expires_at } = made;
    const until = new Date(expires_at).toLocaleTimeString(undefined, { hour: 'numeric', minute: '2-digit' });
    process.stdout.write(
      `Recovery code for the owner, ${owner.username}:\n\n    ${code}\n\n` +
        `It works once, until ${until} (${OWNER_RECOVERY_TTL_MS / 60_000} minutes). On Hearth's sign-in page, choose\n` +
        `"Owner locked out?" and enter this code with a new password. That signs the owner in\n` +
        `and signs the owner's other devices out.\n`,
    );
  } finally {
    db.close();
  }
}

/** The existing database only, as it is: no pragmas that persist, no migrations. */
function open(file: string, elsewhere: string): Db {
  let db: Db;
  try {
    db = openConnection(file, { fileMustExist: true, engine: configFromEnv().sqliteEngine ?? 'auto' });
  } catch (error) {
    throw new Refusal(`Could not open ${file}: ${(error as Error).message}`);
  }
  try {
    // Wait for the running server's write to finish rather than fail beside it; the one row
    // written is on disk before the code is shown.
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = FULL');
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('meta', 'users')").all();
    if (tables.length !== 2) throw new Refusal(`${file} is not a Hearth database.\n${elsewhere}`);
  } catch (error) {
    db.close();
    if (error instanceof Refusal) throw error;
    if (isBusy(error)) throw serverHasIt(path.dirname(file));
    throw new Refusal(`${file} is not a Hearth database (${(error as Error).message}).\n${elsewhere}`);
  }
  return db;
}

/**
 * The running server has the database to itself: it started on a disk too full for the
 * database's shared-memory file, and then no other program may open the database until its
 * next start (store/database/db.ts, `sharedMemory: false`).
 */
function serverHasIt(dir: string): Refusal {
  return new Refusal(
    `The Hearth server running on ${dir} has its database to itself right now (it started while the disk was full), so this command cannot make a code.\n` +
      'In the desktop app, use the tray menu: "Owner locked out? Make a recovery code…". ' +
      'Otherwise free some space on that disk, restart the server, and run this again.',
  );
}

process.exitCode = main(process.argv.slice(2));
