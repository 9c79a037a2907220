import path from 'node:path';
import type { Library } from '../../contract/storage-responses.ts';
import { AppError } from '../../app-error.ts';
import { isNetworkFs, mountOf } from '../../platform/mounts.ts';
import { LIBRARY_FOLDER, type DriveMounts } from './drive-mounts.ts';
import { holdsContent, inspectFolder, type ContentStores } from '../../store/content/content-stores.ts';
import { hasMarker, writeMarker } from '../../store/content/library-marker.ts';
import { parseMountSpec, type LibraryRow, type MountSpec } from '../../store/database/libraries.repo.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { newId } from '../common/secrets.ts';
import { libraryDto, type LibraryViewer } from './library-dto.ts';
import { checkedName, checkedPath, overlaps } from './library-inputs.ts';
import { MarkerRepair } from './library-markers.ts';
import { clearAndRelease, holdsUnknownContent, refuseWhileHolding, unmountUnlessShared } from './library-removal.ts';

const USAGE_EVENT_INTERVAL_MS = 2_000;
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
  private readonly markers: MarkerRepair;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly mounts: DriveMounts,
  ) {
    this.markers = new MarkerRepair(deps);
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
    const folder = checkedPath(this.deps.config, input.path);
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
      if (this.content.isOnline(id) && holdsUnknownContent(this.deps.store, library)) {
        throw new AppError(
          'library_not_empty',
          "The library's folder holds files this server has no record of (from a newer backup?): nothing was removed.",
        );
      }
      if (this.content.isOnline(id)) await refuseWhileHolding(library, this.deps.now());
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
      this.markers.forget(id);
      this.content.detach(id);
      this.deps.bus.publish('library.changed', { library: this.toDto(library, 'members'), removed: true }, { everyone: true });
      if (online) await clearAndRelease(this.deps, this.mounts, library);
    });
  }

  private async ejectNow(library: LibraryRow): Promise<Library> {
    this.content.detach(library.id);
    const spec = parseMountSpec(library);
    try {
      if (spec?.kind === 'pool') await this.mounts.releasePool(spec.mount_point);
      const drives = spec?.kind === 'pool' ? spec.members.map((m) => m.mount_point) : [library.path];
      for (const folder of drives) await unmountUnlessShared(this.deps, this.mounts, library.id, folder);
    } catch (error) {
      // Still mounted (busy): it stays online rather than being reported safe to unplug.
      this.deps.log.warn('eject failed', { library_id: library.id, error: String(error) });
      await this.bringBack(library, spec).catch(() => {});
      throw error instanceof AppError && error.code === 'helper_unavailable' ? error : new AppError('library_busy');
    }
    this.deps.store.libraries.setStatus(library.id, 'ejected');
    return this.announce(library.id);
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
    if (!hasMarker(current) && !this.markers.repair(current)) return false;
    await this.content.attach(current);
    return true;
  }

  /**
   * Adding a folder again that is an offline library's: the owner means that library. It comes
   * back when the folder proves to be it (see library-markers.ts), rather than the add answering 409.
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
      } else if (!present && !this.markers.repair(library)) {
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
    return libraryDto(this.deps, this.content, library, viewer, options);
  }
}
