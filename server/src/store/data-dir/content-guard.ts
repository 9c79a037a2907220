import fs from 'node:fs';
import path from 'node:path';
import { RESTORE_HELP, StartRefused } from '../../start-refused.ts';
import { contentFileNames } from '../content/content-files.ts';
import { INTERNAL_LIBRARY_ID } from '../content/content-stores.ts';
import { openConnection, openDatabase, type Db, type EngineChoice } from '../database/db.ts';
import { KeyValueRepo } from '../database/kv.repo.ts';
import { holdsFilesOf, markerState, writeMarker, type LibraryRecord } from '../content/library-marker.ts';
import { storageFaultOf } from '../common/storage-faults.ts';

const DATABASE_FILE = 'hearth.db';
const SERVER_ID_KEY = 'server_id';
/** How many content files the upgrade check looks at before concluding the database knows none. */
const EVIDENCE_SCAN_LIMIT = 10_000;

/**
 * Opens the data folder's database, but only when it is the database that has seen the
 * content beside it. A missing, emptied, fresh or foreign `hearth.db` next to the family's
 * files would otherwise start as a new install: its start-up clean-up took every file for an
 * orphan, and anyone on the network could claim the owner account.
 *
 * How the server knows: the internal library's folder (`files/`) carries a seal, the
 * `.hearth-library` marker every library has, naming the database it belongs to (the
 * database's `server_id`, made once with it and kept in it, so a backup of the same database
 * carries the same id). The seal is written when a database first opens on the folder and
 * outlives the database: a missing or emptied `hearth.db` beside a seal, or a `hearth.db`
 * with another id, is refused before anything is written. So is a missing or emptied one in
 * a folder from before seals whose `files/` shows that a database lived there. A folder from before seals existed
 * is sealed on its first start if its database knows at least one of its content files.
 * A database restored from an older backup has the same id and starts: the clean-up then
 * keeps every file the database does not know (services/files/reconcile.ts), so nothing newer than
 * the backup is lost either.
 */
export function openGuardedDatabase(
  dataDir: string,
  engine: EngineChoice,
  mintId: () => string,
  open = (file: string) => openDatabase(file, engine),
): Db {
  const file = path.join(dataDir, DATABASE_FILE);
  const filesDir = path.join(dataDir, 'files');
  const seal = readSeal(filesDir);
  // Content files, not uploads under way: a partial upload is no one's file without its row.
  const content = holdsContentFiles(path.join(filesDir, 'blobs'));
  const size = fileSize(file);

  if (size === null || size === 0) {
    if (seal !== null || content || hadDatabase(filesDir))
      throw missing(file, size === null ? 'is missing' : 'is empty (0 bytes)', content);
  } else {
    checkDatabase(file, engine, seal, filesDir, content);
  }

  const db = open(file);
  try {
    const serverId = new KeyValueRepo(db, 'meta').getOrInit(SERVER_ID_KEY, mintId());
    if (seal !== serverId) writeSeal(filesDir, serverId);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Refuses a database that is not the one of this folder's files, reading it without changing it. */
function checkDatabase(file: string, engine: EngineChoice, seal: string | null, filesDir: string, content: boolean): void {
  let probe: Db | undefined;
  try {
    probe = openConnection(file, { engine, fileMustExist: true });
    let facts: DatabaseFacts;
    try {
      facts = readFacts(probe);
    } catch (error) {
      if (storageFaultOf(error) === null) throw error;
      // No room for the shared-memory file on a full disk: read without it (EXCLUSIVE before
      // the first access keeps SQLite off that file), as the server itself then opens.
      probe.close();
      probe = openConnection(file, { engine, fileMustExist: true });
      probe.pragma('locking_mode = EXCLUSIVE');
      facts = readFacts(probe);
    }
    if (seal !== null && facts.serverId !== seal) {
      throw notThisContent(
        file,
        facts.serverId === null ? 'a database made anew, not the one these files belong to' : 'the database of another Hearth install',
      );
    }
    if (seal === null && content && (facts.serverId === null || !knowsSomeContent(probe, filesDir))) {
      throw notThisContent(file, 'a database that knows none of the files stored here');
    }
    if (!facts.hasUsers && (content || facts.hasContentRows)) {
      throw new StartRefused(
        'accounts_missing',
        `Hearth did not start: its database ${file} has no accounts left, though the family's files are stored here. ` +
          'Starting like this would let anyone on the network claim the owner account. ' +
          `Put hearth.db back from your backup (${RESTORE_HELP}); nothing was changed.`,
      );
    }
  } catch (error) {
    if (error instanceof StartRefused) throw error;
    throw new StartRefused(
      'database_damaged',
      `Hearth did not start: its database ${file} cannot be read (${String((error as Error).message ?? error).slice(0, 200)}). ` +
        `Put hearth.db back from your backup (${RESTORE_HELP}); the family's files were not touched.`,
    );
  } finally {
    probe?.close();
  }
}

interface DatabaseFacts {
  serverId: string | null;
  hasUsers: boolean;
  /** Versions or libraries other than the internal one: content this database has recorded. */
  hasContentRows: boolean;
}

function readFacts(db: Db): DatabaseFacts {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  // A database made by SQLite but never by Hearth (no tables yet) is as good as new.
  if (!tables.has('meta')) return { serverId: null, hasUsers: false, hasContentRows: false };
  const serverId = new KeyValueRepo(db, 'meta').get<string>(SERVER_ID_KEY) ?? null;
  const exists = (sql: string) => db.prepare(sql).get() !== undefined;
  return {
    serverId,
    hasUsers: tables.has('users') && exists('SELECT 1 FROM users LIMIT 1'),
    hasContentRows:
      (tables.has('node_versions') && exists('SELECT 1 FROM node_versions LIMIT 1')) ||
      (tables.has('libraries') && exists(`SELECT 1 FROM libraries WHERE id <> '${INTERNAL_LIBRARY_ID}' LIMIT 1`)),
  };
}

/** Whether the database records at least one of the internal library's files (a version, a deletion, an upload). */
function knowsSomeContent(db: Db, filesDir: string): boolean {
  const tables = new Set(
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((r) => r.name),
  );
  const lookup = (table: string, sql: string) => (tables.has(table) ? db.prepare(sql) : null);
  const version = lookup('node_versions', 'SELECT 1 FROM node_versions WHERE library_id = ? AND blob = ?');
  const garbage = lookup('content_garbage', 'SELECT 1 FROM content_garbage WHERE library_id = ? AND blob = ?');
  const completing = lookup('uploads', 'SELECT 1 FROM uploads WHERE blob = ?');
  const upload = lookup('uploads', 'SELECT 1 FROM uploads WHERE id = ? AND library_id = ?');
  const record: LibraryRecord = {
    knowsBlob: (blob) =>
      version?.get(INTERNAL_LIBRARY_ID, blob) !== undefined ||
      garbage?.get(INTERNAL_LIBRARY_ID, blob) !== undefined ||
      completing?.get(blob) !== undefined,
    knowsUpload: (uploadId) => upload?.get(uploadId, INTERNAL_LIBRARY_ID) !== undefined,
  };
  return holdsFilesOf(filesDir, record, EVIDENCE_SCAN_LIMIT);
}

/**
 * Whether a database has lived here, by what only a server that opened one leaves in `files/`
 * (a folder from before seals, whose files may all be on library drives): a marker of any
 * format, or the blob store's folder, which every version makes once its database is open.
 */
function hadDatabase(filesDir: string): boolean {
  return markerState(filesDir).kind !== 'missing' || fs.existsSync(path.join(filesDir, 'blobs'));
}

function holdsContentFiles(blobsDir: string): boolean {
  for (const _ of contentFileNames(blobsDir)) return true;
  return false;
}

function missing(file: string, state: string, content: boolean): StartRefused {
  return new StartRefused(
    'database_missing',
    `Hearth did not start: its database ${file} ${state}, ` +
      (content
        ? "but the family's files are stored in this data folder. "
        : "but this data folder has had one: it holds the family's accounts and which files are theirs, on this computer or on a library drive. ") +
      'Starting afresh would forget every account and file, and let anyone on the network claim the owner account. ' +
      `Put hearth.db back from your backup (${RESTORE_HELP}); nothing was changed. ` +
      'To really start over, move the whole data folder away first.',
  );
}

function notThisContent(file: string, what: string): StartRefused {
  return new StartRefused(
    'database_not_this_content',
    `Hearth did not start: ${file} is ${what}. ` +
      "Starting with it would hide the family's files, and clean-up could take them for leftovers. " +
      `Put this folder's own hearth.db back from your backup (${RESTORE_HELP}); nothing was changed.`,
  );
}

function fileSize(file: string): number | null {
  try {
    return fs.statSync(file).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/**
 * The internal library's marker, read like every library's (library-marker.ts): the database
 * it belongs to. Null when there is none, or when it is unreadable (a damaged seal is judged
 * like a missing one: by what the database knows).
 */
function readSeal(filesDir: string): string | null {
  const state = markerState(filesDir);
  return state.kind === 'names' && state.id === INTERNAL_LIBRARY_ID ? state.database : null;
}

/**
 * On a full or read-only disk the seal waits for a later start: without it the folder is
 * judged as one from before seals (by the files its database knows), which still refuses a
 * database that knows none of them.
 */
function writeSeal(filesDir: string, serverId: string): void {
  try {
    fs.mkdirSync(filesDir, { recursive: true });
    writeMarker(filesDir, INTERNAL_LIBRARY_ID, serverId);
  } catch (error) {
    const fault = storageFaultOf(error);
    if (fault !== 'full' && fault !== 'read_only') throw error;
  }
}
