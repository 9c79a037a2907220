import type { Readable } from 'node:stream';
import { AppError } from '../../app-error.ts';
import { MAX_NAME_BYTES, shortenName } from '../../contract/names.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { NodeRow } from '../../store/database/nodes.repo.ts';
import type { SubtreeRow } from '../../store/database/downloads.repo.ts';
import type { AccessService } from './access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { hashSecret, newSecret } from '../common/secrets.ts';
import type { SessionService } from '../identity/sessions.ts';
import { cleanNodeName } from './node-names.ts';
import { zipEntryNames, zipSafeName } from './zip-names.ts';

/** One entry of a zip, in the order written: a folder (`path` ends with `/`) or a file. */
export type ZipEntry =
  | { kind: 'folder'; path: string; modifiedAt: number }
  | { kind: 'file'; path: string; modifiedAt: number; size: number; open: () => Readable };

/** What a zip holds, decided before its first byte is sent. */
export interface ZipPlan {
  /** The file name the browser saves it under, ending in .zip. */
  name: string;
  entries: ZipEntry[];
  files: number;
  folders: number;
  bytes: number;
}

/** A zip being sent: `done` once it is sent or given up, whichever comes first. */
export type SendingZip = ZipPlan & { done(): void };

/** A ticket made: the secret for the download's URL, and what the zip will hold. */
export interface MintedZip {
  ticket: string;
  expires_at: number;
  name: string;
  files: number;
  folders: number;
  bytes: number;
}

/** What a public link's zip holds: a folder (with all below it), else these files; named `name`. */
export interface LinkZip {
  name: string;
  folder: NodeRow | null;
  files: readonly NodeRow[];
}

export interface ZipRequest {
  node_ids: string[];
  name?: string | undefined;
}

/**
 * Many files (and folders, with what they hold) as one zip, streamed as it is made. A signed-in
 * request names them and is answered with a one-use ticket; the browser then follows the
 * ticket's URL itself, so the zip goes straight to disk (a fetch would gather it in memory),
 * and no session token ever sits in a URL (a browser keeps URLs in its downloads list and
 * history). Every node is access-checked when the ticket is made and again when it is used: one
 * the caller may not read makes the whole request 404, as a single download would, never a
 * zip that silently lacks a photo.
 */
export class ZipDownloadService {
  private sending = 0;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly content: ContentStores,
    private readonly sessions: SessionService,
  ) {}

  /** Checks what is asked (so every mistake is answered here, as JSON) and makes its ticket. */
  mint(actor: Actor, request: ZipRequest): MintedZip {
    const ids = [...new Set(request.node_ids)];
    const requested = request.name === undefined ? undefined : zipFileName(request.name);
    const plan = this.plan(actor, ids, requested);
    const now = this.deps.now();
    const ticket = newSecret();
    const expiresAt = now + this.deps.config.downloadTicketTtlMs;
    const { downloads } = this.deps.store;
    downloads.purgeExpired(now);
    downloads.insert({
      ticket_hash: hashSecret(ticket),
      session_id: actor.sessionId,
      node_ids: JSON.stringify(ids),
      name: plan.name,
      created_at: now,
      expires_at: expiresAt,
    });
    return {
      ticket,
      expires_at: expiresAt,
      name: plan.name,
      files: plan.files,
      folders: plan.folders,
      bytes: plan.bytes,
    };
  }

  /** The session that made a ticket still unspent, or null: read without spending it. */
  sessionOf(ticket: string): string | null {
    return this.deps.store.downloads.sessionOf(hashSecret(ticket));
  }

  /**
   * The zip a ticket stands for, as the account that made it may read it now. The ticket is
   * spent whatever follows; a session signed out since, or access lost since, ends it here.
   */
  open(ticket: string): SendingZip {
    const row = this.deps.store.downloads.take(hashSecret(ticket));
    if (!row || row.expires_at <= this.deps.now()) throw new AppError('download_expired');
    const actor = this.sessions.liveActor(row.session_id);
    return this.send(this.plan(actor, JSON.parse(row.node_ids) as string[], row.name));
  }

  /**
   * A public link's "Download all": what the link shows, which the public service has checked
   * (its state, its password, its download switch): an album's photos, or a folder with all
   * below it that is not in the trash (a link on a folder opens everything under it).
   */
  forLink(shown: LinkZip): SendingZip {
    const name = zipFileName(shown.name);
    const plan: ZipPlan = { name, entries: [], files: 0, folders: 0, bytes: 0 };
    if (shown.folder) {
      this.addFolder(plan, `${name.slice(0, -'.zip'.length)}/`, shown.folder, () => true);
    } else {
      const names = zipEntryNames(shown.files.map((node) => ({ name: node.name, isFile: true })));
      shown.files.forEach((node, i) => this.addFile(plan, names[i]!, node.id, node.updated_at));
    }
    return this.send(plan);
  }

  private send(plan: ZipPlan): SendingZip {
    this.sending += 1;
    let over = false;
    const done = () => {
      if (!over) this.sending -= 1;
      over = true;
    };
    return { ...plan, done };
  }

  /**
   * Whether a zip is being sent. Its entries open their content files only when the writer
   * reaches them, at the places the plan found them: files with the same bytes wait to be
   * merged (one of them taken away) until no zip is sent (content-merge.ts).
   */
  get busy(): boolean {
    return this.sending > 0;
  }

  private plan(actor: Actor, ids: readonly string[], name: string | undefined): ZipPlan {
    const nodes = ids.map((id, i) => this.readable(actor, id, `node_ids.${i}`));
    const plan: ZipPlan = { name: name ?? defaultName(nodes), entries: [], files: 0, folders: 0, bytes: 0 };
    const names = zipEntryNames(nodes.map((node) => ({ name: node.name, isFile: node.type === 'file' })));
    nodes.forEach((node, i) => {
      if (node.type === 'file') this.addFile(plan, names[i]!, node.id, node.updated_at);
      else this.addFolder(plan, `${names[i]}/`, node, this.keepFor(actor, node));
    });
    return plan;
  }

  /** A node the caller may read and that is not in the trash, else the error that names it. */
  private readable(actor: Actor, id: string, field: string): NodeRow {
    let node: NodeRow;
    try {
      node = this.access.node(actor, id, 'read');
    } catch (error) {
      if (error instanceof AppError && error.field === undefined) throw new AppError(error.code, error.message, { field });
      throw error;
    }
    if (node.in_trash) throw new AppError('in_trash', 'Something asked for is in the trash: restore it first.', { field });
    return node;
  }

  private addFile(plan: ZipPlan, path: string, nodeId: string, fallbackTime: number): void {
    const version = this.deps.store.versions.current(nodeId);
    if (!version) throw new AppError('not_found');
    this.push(plan, {
      kind: 'file',
      path,
      modifiedAt: version.created_at || fallbackTime,
      size: version.size,
      open: this.opener(version.library_id, version.blob),
    });
    plan.bytes += version.size;
  }

  /**
   * A folder and everything below it that is not in the trash, each folder's entries named
   * apart, folders first. Below a folder the caller reads through a grant, everything is
   * theirs to read; below one of their own, an item of someone else's is left out unless they
   * may read it on its own.
   */
  private addFolder(plan: ZipPlan, path: string, folder: NodeRow, keep: (row: SubtreeRow) => boolean): void {
    const max = this.deps.config.zipMaxEntries;
    const rows = this.deps.store.downloads.subtree(folder.id, max + 1);
    if (rows.length > max) throw new AppError('too_many_files');
    const children = new Map<string, SubtreeRow[]>();
    for (const row of rows) {
      if (!keep(row)) continue;
      const list = children.get(row.parent_id);
      if (list) list.push(row);
      else children.set(row.parent_id, [row]);
    }
    const walk = (id: string, at: string, modifiedAt: number) => {
      this.push(plan, { kind: 'folder', path: at, modifiedAt });
      const inside = (children.get(id) ?? []).sort((a, b) =>
        a.type === b.type ? a.name.localeCompare(b.name) : a.type === 'folder' ? -1 : 1,
      );
      const names = zipEntryNames(inside.map((row) => ({ name: row.name, isFile: row.type === 'file' })));
      inside.forEach((row, i) => {
        if (row.type === 'folder') {
          walk(row.id, `${at}${names[i]}/`, row.updated_at);
        } else if (row.blob !== null && row.library_id !== null && row.size !== null) {
          this.push(plan, {
            kind: 'file',
            path: at + names[i],
            modifiedAt: row.content_at ?? row.updated_at,
            size: row.size,
            open: this.opener(row.library_id, row.blob),
          });
          plan.bytes += row.size;
        }
      });
    };
    walk(folder.id, path, folder.updated_at);
  }

  /** What of a folder's subtree the caller's zip holds (see addFolder). */
  private keepFor(actor: Actor, folder: NodeRow): (row: SubtreeRow) => boolean {
    const granted = folder.owner_id !== actor.userId;
    return (row) => granted || row.owner_id === actor.userId || this.mayRead(actor, row.id);
  }

  private mayRead(actor: Actor, id: string): boolean {
    try {
      this.access.node(actor, id, 'read');
      return true;
    } catch {
      return false;
    }
  }

  private push(plan: ZipPlan, entry: ZipEntry): void {
    if (plan.entries.length >= this.deps.config.zipMaxEntries) throw new AppError('too_many_files');
    plan.entries.push(entry);
    if (entry.kind === 'file') plan.files += 1;
    else plan.folders += 1;
  }

  /** Reading starts only when the writer reaches the entry: one file open at a time. */
  private opener(libraryId: string, blob: string): () => Readable {
    // Asked now, so a drive that is not connected answers 503 before the zip's first byte.
    const blobs = this.content.of(libraryId);
    return () => blobs.read(blob);
  }
}

/** The name a zip is saved under: what the app asked for (made safe), else one from what it holds. */
function zipFileName(requested: string): string {
  const name = zipSafeName(cleanNodeName(requested.trim(), 'name'));
  return name.toLowerCase().endsWith('.zip') ? name : `${shortenName(name, MAX_NAME_BYTES - 4)}.zip`;
}

function defaultName(nodes: readonly NodeRow[]): string {
  const only = nodes.length === 1 ? nodes[0] : undefined;
  return only?.type === 'folder' ? `${shortenName(zipSafeName(only.name), MAX_NAME_BYTES - 4)}.zip` : 'Hearth download.zip';
}
