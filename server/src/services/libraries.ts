import fs from 'node:fs';
import path from 'node:path';
import type { LibraryDto } from '../contract/dto.ts';
import { AppError } from '../errors.ts';
import { isNetworkFs, mountOf, unmount } from '../platform/mounts.ts';
import { hasMarker, LIBRARY_MARKER, type ContentStores } from '../store/content-stores.ts';
import type { LibraryRow } from '../store/libraries.repo.ts';
import type { Actor, ServiceDeps } from './context.ts';
import { newId } from './secrets.ts';
import { requireAdmin } from './settings.ts';

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

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
  ) {
    // Usage changes with content (uploads, new versions, deletes); clients hear of it at most every 2 s.
    this.unsubscribe = deps.bus.subscribe((event) => {
      if (!CONTENT_EVENTS.has(event.message.type) || this.usageTimer) return;
      this.usageTimer = setTimeout(() => {
        this.usageTimer = null;
        for (const [id] of this.content.online()) this.announce(id);
      }, USAGE_EVENT_INTERVAL_MS);
      this.usageTimer.unref();
    });
  }

  stop(): void {
    this.unsubscribe();
    if (this.usageTimer) clearTimeout(this.usageTimer);
    this.usageTimer = null;
  }

  list(actor: Actor): LibraryDto[] {
    return this.deps.store.libraries.all().map((library) => this.toDto(library, actor.role === 'admin'));
  }

  async register(actor: Actor, input: { name: string; path: string; make_default?: boolean | undefined }): Promise<LibraryDto> {
    requireAdmin(actor);
    const name = input.name.trim();
    if (name === '' || [...name].length > 64) throw new AppError('invalid_input', 'A library name is 1 to 64 characters.', { field: 'name' });
    const folder = this.checkedPath(input.path);
    for (const other of this.deps.store.libraries.all()) {
      if (overlaps(other.path, folder)) throw new AppError('already_registered', undefined, { field: 'path' });
    }
    const mount = mountOf(folder);
    const library: LibraryRow = {
      id: newId(),
      name,
      kind: mount && isNetworkFs(mount.fsType) ? 'network' : 'external',
      path: folder,
      is_default: 0,
      status: 'online',
      created_at: this.deps.now(),
    };
    fs.writeFileSync(path.join(folder, LIBRARY_MARKER), library.id);
    await this.content.attach(library);
    this.deps.store.transaction(() => {
      this.deps.store.libraries.insert(library);
      if (input.make_default) this.deps.store.libraries.setDefault(library.id);
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
  async eject(actor: Actor, id: string): Promise<LibraryDto> {
    requireAdmin(actor);
    const library = this.row(id);
    if (library.kind === 'internal') throw new AppError('cannot_eject_internal');
    if (library.is_default) throw new AppError('library_is_default');
    if (this.deps.store.uploads.countOnLibrary(library.id) > 0) throw new AppError('uploads_in_progress');
    this.content.detach(library.id);
    const mount = mountOf(library.path);
    // Only a drive mounted for this library is unmounted, never the system's own file system,
    // nor a drive the data dir or another library (not ejected) still lives on.
    const shared = (m: { mountPoint: string }) =>
      m.mountPoint === mountOf(this.deps.config.dataDir)?.mountPoint ||
      this.deps.store.libraries.all().some((o) => o.id !== library.id && o.status !== 'ejected' && mountOf(o.path)?.mountPoint === m.mountPoint);
    if (mount && mount.mountPoint !== '/' && !shared(mount)) {
      try {
        await unmount(mount);
      } catch (error) {
        // Still mounted (busy): it stays online rather than being reported safe to unplug.
        await this.content.attach(library);
        this.deps.log.warn('eject failed', { library_id: library.id, error: String(error) });
        throw new AppError('library_busy');
      }
    }
    this.deps.store.libraries.setStatus(library.id, 'ejected');
    return this.announce(library.id);
  }

  /** Maintenance (and startup): a library whose drive is back (its marker readable again) comes online; a vanished one goes offline. */
  async refresh(): Promise<void> {
    for (const library of this.deps.store.libraries.all()) {
      if (library.kind === 'internal') continue;
      const present = hasMarker(library);
      if (library.status === 'ejected') {
        // An ejected drive comes back only after it was really gone (unplugged, then plugged in again).
        if (!present) {
          this.deps.store.libraries.setStatus(library.id, 'offline');
          this.announce(library.id);
        }
        continue;
      }
      if (present && !this.content.isOnline(library.id)) {
        await this.content.attach(library);
        this.deps.store.libraries.setStatus(library.id, 'online');
        this.announce(library.id);
      } else if (!present && this.content.isOnline(library.id)) {
        this.content.detach(library.id);
        this.deps.store.libraries.setStatus(library.id, 'offline');
        this.announce(library.id);
      }
    }
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

  private announce(id: string): LibraryDto {
    const library = this.row(id);
    this.deps.bus.publish('library.changed', { library: this.toDto(library, false) }, { everyone: true });
    return this.toDto(library, true);
  }

  private toDto(library: LibraryRow, forAdmin: boolean): LibraryDto {
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
    const dto: LibraryDto = {
      id: library.id,
      name: library.name,
      kind: library.kind,
      status: online ? 'online' : library.status === 'ejected' ? 'ejected' : 'offline',
      ...space,
      content_bytes: this.deps.store.libraries.contentBytes(library.id),
      default: library.is_default === 1,
    };
    if (forAdmin) dto.path = library.path;
    return dto;
  }
}

function overlaps(a: string, b: string): boolean {
  const inside = (x: string, y: string) => x === y || x.startsWith(y.endsWith('/') ? y : `${y}/`);
  return inside(a, b) || inside(b, a);
}
