import fs from 'node:fs';
import path from 'node:path';
import type { Library } from '../../contract/storage-responses.ts';
import { AppError } from '../../app-error.ts';
import { isNetworkFs, mountOf } from '../../platform/mounts.ts';
import { LIBRARY_FOLDER, type DriveMounts } from './drive-mounts.ts';
import { contentFileNames } from '../../store/content/content-files.ts';
import { clearLibraryFolder, holdsContent, inspectFolder, type ContentStores } from '../../store/content/content-stores.ts';
import { emptyExpiredHolding, heldUntil } from '../../store/content/holding.ts';
import { hasMarker, holdsFilesOf, LIBRARY_MARKER, markerState, writeMarker } from '../../store/content/library-marker.ts';
import { parseMountSpec, type LibraryRow, type MountSpec } from '../../store/database/libraries.repo.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { checkReadableName } from '../common/readable-names.ts';
import { coarseSpace } from './coarse-space.ts';

const USAGE_EVENT_INTERVAL_MS = 2_000;
/** How many content files a folder may show before it is judged not to be a library's (each one a lookup). */
const MARKER_PROOF_SCAN_LIMIT = 1000;
const CONTENT_EVENTS = new Set(['node.created', 'node.updated', 'node.deleted']);

/**
 * Storage libraries: where content lives. The data dir is the internal one; folders on
 * mounted drives can be added, one is the default for new files, and a drive can be ejected.
 * A library that goes away is offline: its files answer 503, nothing is deleted, and they
 * come back with it.
 */
export class LibraryService {
  private usageTimer: NodeJS.Timeout | null = null;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly mounts: DriveMounts,
  ) {
    // Usage changes with content (uploads, new versions, deletes); the owners hear of it at most
    // every 2 s. Members do not: the event's timing alone would tell them when someone uploaded.
    this.unsubscribe = deps.bus.subscribe((event) => {
      if (!CONTENT_EVENTS.has(event.message.type) || this.usageTimer) return;
      this.usageTimer = setTimeout(() => {
        this.usageTimer = null;
        for (const [id] of this.content.online()) this.announce(id, { usageOnly: true });
      }, USAGE_EVENT_INTERVAL_MS);
      this.usageTimer.unref();
    });
  }

  /** Stops the usage events and waits for a drive check in progress (it writes to the database). */
  async stop(): Promise<void> {
    this.unsubscribe();
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
    await this.refreshing;
  }

  isOnline(id: string): boolean {
    return this.content.isOnline(id);
  }

  /** The owner sees every figure; a member, its own files and coarse space (coarse-space.ts says why). */
  list(actor: Actor): Library[] {
    return this.deps.store.libraries
      .all()
      .map((library) => this.toDto(library, actor.role === 'admin' ? 'admin' : { member: actor.userId }));
  }

  async register(actor: Actor, input: { name: string; path: string; make_default?: boolean | undefined }): Promise<Library> {
    requireAdmin(actor);
    const name = checkedName(input.name);
    const folder = this.checkedPath(input.path);
    const returning = await this.bringBackByFolder(folder);
    if (returning) return returning;
    const mount = mountOf(folder);
    return this.add({
      name,
      kind: mount && isNetworkFs(mount.fsType) ? 'network' : 'external',
      path: folder,
      spec: null,
      makeDefault: input.make_default === true,
    });
  }

  /**
   * Adds a library: marks its folder with the library id, opens its store, then records it.
   * Drive and pool libraries come here from the drive service, with how to mount them again.
   */
  async add(input: {
    id?: string;
    name: string;
    kind: LibraryRow['kind'];
    path: string;
    spec: MountSpec | null;
    makeDefault: boolean;
  }): Promise<Library> {
    for (const other of this.deps.store.libraries.all()) {
      if (overlaps(other.path, input.path)) throw new AppError('already_registered', undefined, { field: 'path' });
    }
    const contents = inspectFolder(input.path);
    if (contents.kind === 'other') {
      throw new AppError(
        'folder_not_empty',
        input.spec === null
          ? undefined
          : `The drive has a "${LIBRARY_FOLDER}" folder of its own (not a Hearth library): rename it, then mount the drive again.`,
      );
    }
    if (contents.kind === 'library') {
      if (this.deps.store.libraries.byId(contents.id)) throw new AppError('already_registered', undefined, { field: 'path' });
      // A library this server has removed, or another server's: taken over only when no content is left in it.
      if (holdsContent(input.path)) throw new AppError('foreign_library');
    }
    const library: LibraryRow = {
      id: input.id ?? newId(),
      name: input.name,
      kind: input.kind,
      path: input.path,
      is_default: 0,
      status: 'online',
      created_at: this.deps.now(),
      mount_spec: input.spec === null ? null : JSON.stringify(input.spec),
    };
    // Durable before the library exists: a drive pulled seconds later must still name it.
    writeMarker(input.path, library.id);
    await this.content.attach(library);
    this.deps.store.transaction(() => {
      this.deps.store.libraries.insert(library);
      if (input.makeDefault) this.deps.store.libraries.setDefault(library.id);
    });
    return this.announce(library.id);
  }

  /** A library's drive was mounted again by hand (after an eject): the same library comes back, files and all. */
  async reattach(id: string, folder: string, spec: MountSpec, makeDefault: boolean): Promise<Library> {
    const library = this.row(id);
    this.deps.store.libraries.setMount(library.id, folder, spec);
    await this.content.attach({ ...library, path: folder });
    this.deps.store.transaction(() => {
      this.deps.store.libraries.setStatus(library.id, 'online');
      if (makeDefault) this.deps.store.libraries.setDefault(library.id);
    });
    return this.announce(library.id);
  }

  setDefault(actor: Actor, id: string): void {
    requireAdmin(actor);
    const library = this.row(id);
    if (!this.content.isOnline(library.id)) throw new AppError('library_offline');
    this.deps.store.transaction(() => this.deps.store.libraries.setDefault(library.id));
    this.announce(library.id);
  }

  /**
   * Flushes and unmounts a library's drive so it can be unplugged safely. Refused for the
   * default library (new files would have nowhere to go) and while uploads to it run.
   */
  async eject(actor: Actor, id: string): Promise<Library> {
    requireAdmin(actor);
    const library = this.row(id);
    if (library.kind === 'internal') throw new AppError('cannot_eject_internal');
    if (library.is_default) throw new AppError('library_is_default');
    if (this.deps.store.uploads.countOnLibrary(library.id) > 0) throw new AppError('uploads_in_progress');
    return this.mounts.serially(() => this.ejectNow(library));
  }

  /**
   * Forgets a library that holds no file: no current or old version, nothing in the trash, no
   * upload under way. Refusing a library with content is what makes removal lose nothing; the
   * owner deletes those files first. Refused too while its holding folder keeps what a
   * clean-up took (for 30 days). Its folder is left as it was before (marker, blobs/ and
   * tmp/ taken out) and a drive the server mounted for it is unmounted. An offline library is
   * forgotten as well; its drive, if it ever returns, can be mounted again as a new library.
   */
  async remove(actor: Actor, id: string): Promise<void> {
    requireAdmin(actor);
    const library = this.row(id);
    if (library.kind === 'internal') throw new AppError('cannot_remove_internal');
    await this.mounts.serially(async () => {
      if (this.content.isOnline(id) && this.holdsUnknownContent(library)) {
        throw new AppError(
          'library_not_empty',
          "The library's folder holds files this server has no record of (from a newer backup?): nothing was removed.",
        );
      }
      if (this.content.isOnline(id)) await this.refuseWhileHolding(library);
      this.deps.store.transaction(() => {
        const now = this.row(id);
        if (now.is_default) throw new AppError('library_is_default', 'Choose another library for new files before removing this one.');
        if (this.deps.store.uploads.countOnLibrary(id) > 0) throw new AppError('uploads_in_progress');
        if (this.deps.store.versions.countOnLibrary(id) > 0) throw new AppError('library_not_empty');
        this.deps.store.uploads.removeCompletedOnLibrary(id);
        this.deps.store.garbage.forgetLibrary(id);
        this.deps.store.libraries.remove(id);
      });
      const online = this.content.isOnline(id);
      this.unproven.delete(id);
      this.content.detach(id);
      this.deps.bus.publish('library.changed', { library: this.toDto(library, 'members'), removed: true }, { everyone: true });
      if (online) await this.clearAndRelease(library);
    });
  }

  /**
   * Removing a library clears its folder; that may take only what the database knows to be
   * garbage. A content file it has no record of (the database is older than the drive's
   * files) makes the removal wait, like any file still stored there.
   */
  private holdsUnknownContent(library: LibraryRow): boolean {
    const { store } = this.deps;
    for (const blob of contentFileNames(path.join(library.path, 'blobs'))) {
      if (!store.versions.hasBlob(library.id, blob) && store.garbage.get(library.id, blob) === undefined) return true;
    }
    return false;
  }

  /**
   * The holding folder keeps what the clean-up took for HOLDING_DAYS, for when the clean-up
   * was wrong: removing the library would take that chance away, so it waits until the last
   * held day is over (the owner is told when).
   */
  private async refuseWhileHolding(library: LibraryRow): Promise<void> {
    const until = await heldUntil(library.path, this.deps.now());
    if (until === null) return;
    const day = new Date(until).toISOString().slice(0, 10);
    throw new AppError(
      'library_not_empty',
      `Hearth's clean-up set aside files here that looked unused (in the holding folder) and keeps them until ${day}, in case they are needed after all. This place can be removed from ${day} on.`,
    );
  }

  /** After a removal: the folder goes back to how it was, and what the server mounted for it is unmounted. */
  private async clearAndRelease(library: LibraryRow): Promise<void> {
    const spec = parseMountSpec(library);
    await this.tidy(library, () => emptyExpiredHolding(library.path, this.deps.now()));
    await this.tidy(library, () => clearLibraryFolder(library.path));
    if (spec?.kind === 'pool') await this.tidy(library, () => this.mounts.releasePool(spec.mount_point));
    for (const member of spec === null ? [] : spec.kind === 'drive' ? [spec.member] : spec.members) {
      await this.tidy(library, () => fs.rmdirSync(path.join(member.mount_point, LIBRARY_FOLDER)));
      if (member.mounted_by_server) await this.tidy(library, () => this.unmountUnlessShared(library.id, member.mount_point));
    }
  }

  /** The library is forgotten whatever happens here: a folder or a mount left behind holds nothing of it. */
  private async tidy(library: LibraryRow, step: () => unknown): Promise<void> {
    try {
      await step();
    } catch (error) {
      this.deps.log.warn('a removed library could not be tidied away', { library_id: library.id, error: String(error) });
    }
  }

  private async ejectNow(library: LibraryRow): Promise<Library> {
    this.content.detach(library.id);
    const spec = parseMountSpec(library);
    try {
      if (spec?.kind === 'pool') await this.mounts.releasePool(spec.mount_point);
      const drives = spec?.kind === 'pool' ? spec.members.map((m) => m.mount_point) : [library.path];
      for (const folder of drives) await this.unmountUnlessShared(library.id, folder);
    } catch (error) {
      // Still mounted (busy): it stays online rather than being reported safe to unplug.
      this.deps.log.warn('eject failed', { library_id: library.id, error: String(error) });
      await this.bringBack(library, spec).catch(() => {});
      throw error instanceof AppError && error.code === 'helper_unavailable' ? error : new AppError('library_busy');
    }
    this.deps.store.libraries.setStatus(library.id, 'ejected');
    return this.announce(library.id);
  }

  /**
   * Unmounts the drive a folder lives on, unless the system, the data dir or another library
   * (not ejected) lives on it too.
   */
  private async unmountUnlessShared(libraryId: string, folder: string): Promise<void> {
    const mount = mountOf(folder);
    if (!mount || mount.mountPoint === '/') return;
    const shared =
      mount.mountPoint === mountOf(this.deps.config.dataDir)?.mountPoint ||
      this.deps.store.libraries
        .all()
        .some((o) => o.id !== libraryId && o.status !== 'ejected' && mountOf(o.path)?.mountPoint === mount.mountPoint);
    if (shared) return;
    await this.mounts.unmount(mount);
    this.mounts.forgetMountPoint(mount.mountPoint);
  }

  /** Mounts (when the server mounted it) and opens a library again; answers whether it is online. */
  private async bringBack(library: LibraryRow, spec: MountSpec | null): Promise<boolean> {
    let current = library;
    if (spec && !hasMarker(library)) {
      const mounted = await this.mounts.assemble(spec);
      if (mounted) {
        const folder = mounted.kind === 'drive' ? path.join(mounted.member.mount_point, LIBRARY_FOLDER) : mounted.mount_point;
        this.deps.store.libraries.setMount(library.id, folder, mounted);
        current = this.row(library.id);
      }
    }
    if (!hasMarker(current) && !this.repairMarker(current)) return false;
    await this.content.attach(current);
    return true;
  }

  /**
   * A library whose marker a power cut or a pulled drive left empty or garbled (or took away)
   * is recognised by its files: when its folder holds a content file or an upload that the
   * database records on this library, the marker is written again and the library comes back.
   * A marker naming another library is never overwritten, and an empty folder is never taken
   * for the library (an empty mount point is not the drive), unless its marker is there but
   * damaged and the library holds nothing the folder should have.
   */
  private repairMarker(library: LibraryRow): boolean {
    const state = markerState(library.path);
    if (state.kind === 'names' || state.kind === 'unreadable') return false;
    // An offline library is looked at every few seconds: its folder is walked again only once
    // something there changed since the walk that did not prove it (a drive mounted on it,
    // files or a marker written), not a thousand lookups each time.
    const look = folderLook(library.path, state.kind);
    if (this.unproven.get(library.id) === look) return false;
    const { store } = this.deps;
    const proven = holdsFilesOf(
      library.path,
      {
        knowsBlob: (blob) => store.versions.hasBlob(library.id, blob) || store.garbage.get(library.id, blob) !== undefined,
        knowsUpload: (uploadId) => store.uploads.byId(uploadId)?.library_id === library.id,
      },
      MARKER_PROOF_SCAN_LIMIT,
    );
    const emptyLibrary =
      state.kind === 'damaged' &&
      !holdsContent(library.path) &&
      store.versions.countOnLibrary(library.id) === 0 &&
      store.uploads.countOnLibrary(library.id) === 0;
    if (!proven && !emptyLibrary) {
      this.unproven.set(library.id, look);
      return false;
    }
    this.unproven.delete(library.id);
    try {
      writeMarker(library.path, library.id);
    } catch (error) {
      this.deps.log.warn('a library marker could not be written again', { library_id: library.id, error: String(error) });
      return false;
    }
    this.deps.log.warn("wrote a library marker again: it was damaged or missing, and the folder holds this library's files", {
      library_id: library.id,
      marker: state.kind,
    });
    return true;
  }

  /**
   * Adding a folder again that is an offline library's: the owner means that library. It comes
   * back when the folder proves to be it (see repairMarker), rather than the add answering 409.
   */
  private async bringBackByFolder(folder: string): Promise<Library | null> {
    const library = this.deps.store.libraries
      .all()
      .find((l) => l.kind !== 'internal' && l.path === folder && l.status !== 'ejected' && !this.content.isOnline(l.id));
    if (!library) return null;
    await this.refresh();
    return this.content.isOnline(library.id) ? this.toDto(this.row(library.id), 'admin') : null;
  }

  private refreshing: Promise<void> | null = null;
  /** Per library, how its folder looked when its files last failed to prove it (see repairMarker). */
  private readonly unproven = new Map<string, string>();

  /**
   * Startup, every few seconds, and maintenance: a library whose drive is back comes online
   * (the server mounts again what it mounted itself: a drive after a replug, a pool after a
   * reboot); a vanished one goes offline.
   */
  refresh(): Promise<void> {
    this.refreshing ??= this.mounts
      .serially(() => this.refreshAll())
      .finally(() => {
        this.refreshing = null;
      });
    return this.refreshing;
  }

  private async refreshAll(): Promise<void> {
    for (const library of this.deps.store.libraries.all()) {
      if (library.kind === 'internal') continue;
      const spec = parseMountSpec(library);
      if (library.status === 'ejected') {
        // An ejected drive comes back only after it was really gone (unplugged, then plugged in again).
        const gone = spec ? !(await this.mounts.anyPresent(spec)) : !hasMarker(library);
        if (gone) {
          this.deps.store.libraries.setStatus(library.id, 'offline');
          this.announce(library.id);
        }
        continue;
      }
      const present = hasMarker(library);
      if (!this.content.isOnline(library.id)) {
        const back = await this.bringBack(library, spec).catch((error: unknown) => this.assembleFailed(library, error));
        if (back) {
          this.deps.store.libraries.setStatus(library.id, 'online');
          this.announce(library.id);
        } else if (library.status === 'online') {
          this.deps.store.libraries.setStatus(library.id, 'offline');
        }
      } else if (!present && !this.repairMarker(library)) {
        this.content.detach(library.id);
        this.deps.store.libraries.setStatus(library.id, 'offline');
        this.announce(library.id);
      }
    }
  }

  private readonly assembleErrors = new Map<string, string>();

  /** A drive that cannot be mounted again is logged once per distinct reason, not every few seconds. */
  private assembleFailed(library: LibraryRow, error: unknown): false {
    const reason = error instanceof AppError ? `${error.code}: ${error.message}` : String(error);
    if (this.assembleErrors.get(library.id) !== reason) {
      this.assembleErrors.set(library.id, reason);
      this.deps.log.warn('library could not be mounted again', { library_id: library.id, error: reason });
    }
    return false;
  }

  /** A real, writable directory under a mounts root or the data dir (symlinks resolved first). */
  private checkedPath(input: string): string {
    let folder: string;
    try {
      folder = fs.realpathSync(input);
    } catch {
      throw new AppError('invalid_library_path', 'That folder does not exist.', { field: 'path' });
    }
    const roots = [...this.deps.config.mountsRoots, this.deps.config.dataDir].map((r) => {
      try {
        return fs.realpathSync(r);
      } catch {
        return path.resolve(r);
      }
    });
    if (!roots.some((root) => folder.startsWith(root.endsWith('/') ? root : `${root}/`))) {
      throw new AppError('invalid_library_path', undefined, { field: 'path' });
    }
    try {
      if (!fs.statSync(folder).isDirectory()) throw new Error('not a directory');
      fs.accessSync(folder, fs.constants.W_OK);
    } catch {
      throw new AppError('invalid_library_path', 'The folder must be a directory the server can write to.', { field: 'path' });
    }
    return folder;
  }

  private row(id: string): LibraryRow {
    const library = this.deps.store.libraries.byId(id);
    if (!library) throw new AppError('not_found');
    return library;
  }

  /**
   * Tells who may know that a library changed: the owners, with every figure; members too when
   * its state changed (added, default, ejected, offline), with coarse space and no one's
   * content (their own is in GET /libraries).
   */
  private announce(id: string, options: { usageOnly?: boolean } = {}): Library {
    const library = this.row(id);
    const { users } = this.deps.store;
    this.deps.bus.publish('library.changed', { library: this.toDto(library, 'admin', { path: false }) }, { users: users.activeAdminIds() });
    if (!options.usageOnly)
      this.deps.bus.publish('library.changed', { library: this.toDto(library, 'members') }, { users: users.activeMemberIds() });
    return this.toDto(library, 'admin');
  }

  private toDto(library: LibraryRow, viewer: LibraryViewer, options: { path?: boolean } = {}): Library {
    const forAdmin = viewer === 'admin';
    const online = this.content.isOnline(library.id);
    let space = { used: 0, free: 0, total: 0 };
    if (online) {
      try {
        const s = fs.statfsSync(library.path);
        space = { used: (s.blocks - s.bfree) * s.bsize, free: s.bavail * s.bsize, total: s.blocks * s.bsize };
      } catch {
        // Vanished since the last check: the next refresh marks it offline.
      }
    }
    const dto: Library = {
      id: library.id,
      name: library.name,
      kind: library.kind,
      status: online ? 'online' : library.status === 'ejected' ? 'ejected' : 'offline',
      ...(forAdmin ? space : coarseSpace(space)),
      content_bytes:
        viewer === 'admin'
          ? this.deps.store.libraries.contentBytes(library.id)
          : viewer === 'members'
            ? 0
            : this.deps.store.libraries.ownContentBytes(library.id, viewer.member),
      default: library.is_default === 1,
    };
    if (forAdmin && options.path !== false) {
      dto.path = library.path;
      const spec = parseMountSpec(library);
      if (spec?.kind === 'pool') dto.members = spec.members.map((m) => ({ device: m.device, uuid: m.uuid, path: m.mount_point }));
    }
    return dto;
  }
}

/** Whom a library's figures are for: the owners (every figure), one member (its own files), or every member at once (no one's files). */
type LibraryViewer = 'admin' | { member: string } | 'members';

export function checkedName(input: string): string {
  const name = input.trim();
  if (name === '' || [...name].length > 64) throw new AppError('invalid_input', 'A library name is 1 to 64 characters.', { field: 'name' });
  checkReadableName(name, 'name');
  return name;
}

/**
 * How a library folder looks, cheaply: its marker's state and the identity and times of the
 * folder, its marker, blobs/ and tmp/. A drive mounted on the folder, a file added to tmp/ or
 * a new shard in blobs/, a marker written or damaged: each changes it.
 */
function folderLook(folder: string, marker: string): string {
  const parts = [marker];
  for (const entry of [folder, path.join(folder, LIBRARY_MARKER), path.join(folder, 'blobs'), path.join(folder, 'tmp')]) {
    try {
      const stat = fs.statSync(entry, { throwIfNoEntry: false, bigint: true });
      parts.push(stat === undefined ? '-' : `${stat.dev}:${stat.ino}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.size}`);
    } catch (error) {
      parts.push(String((error as NodeJS.ErrnoException).code));
    }
  }
  return parts.join('|');
}

function overlaps(a: string, b: string): boolean {
  const inside = (x: string, y: string) => x === y || x.startsWith(y.endsWith('/') ? y : `${y}/`);
  return inside(a, b) || inside(b, a);
}
