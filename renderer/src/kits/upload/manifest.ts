/**
 * What this browser was sending, kept in localStorage so a reload can say which files did not
 * arrive ("4 files not sent: choose them again"). A browser cannot reopen a file by itself:
 * the person chooses it again, and tus continues from the bytes the server already has.
 * Only names and sizes are kept, never content.
 */
export interface Unsent {
  id: string;
  account: string;
  /** The file's own name, by which a file chosen again is recognised. */
  name: string;
  /** The shorter name it is sent under, when its own was too long for the server. */
  as?: string;
  size: number;
  lastModified: number;
  parentId: string | null;
  replaceNodeId: string | null;
  /** The album the file joins once uploaded, kept so a file chosen again after a reload still joins it. */
  albumId?: string;
  /**
   * Why the server refused it for good (a sentence for the person). Such a file is reported
   * once after a reload and then forgotten: choosing it again could only fail again.
   */
  refused?: string;
  /**
   * The part of the app that queued it, when that part tells the person itself how to finish
   * (a phone backup says "Your last backup stopped…" and is simply run again): the general
   * "choose them again" notice leaves such entries to it.
   */
  batch?: string;
}

const KEY = 'hearth.unsent';

function readAll(): Unsent[] {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '[]') as Unsent[];
  } catch {
    return [];
  }
}

function writeAll(list: Unsent[]): void {
  if (list.length === 0) localStorage.removeItem(KEY);
  else localStorage.setItem(KEY, JSON.stringify(list));
}

const sameFile = (u: Unsent, file: File) => u.name === file.name && u.size === file.size && u.lastModified === file.lastModified;
const fileKey = (f: { name: string; size: number; lastModified: number }) => `${f.name}\0${f.size}\0${f.lastModified}`;

export const manifest = {
  forAccount(account: string): Unsent[] {
    return readAll().filter((u) => u.account === account);
  },
  /** Entries of one batch chosen, written at once: a camera roll of 2,000 is one write, not 2,000. */
  addAll(entries: readonly Unsent[]): void {
    if (entries.length === 0) return;
    const ids = new Set(entries.map((entry) => entry.id));
    writeAll([...readAll().filter((u) => !ids.has(u.id)), ...entries]);
  },
  add(entry: Unsent): void {
    manifest.addAll([entry]);
  },
  remove(...ids: string[]): void {
    const gone = new Set(ids);
    writeAll(readAll().filter((u) => !gone.has(u.id)));
  },
  refuse(id: string, reason: string): void {
    writeAll(readAll().map((u) => (u.id === id ? { ...u, refused: reason } : u)));
  },
  /** The unsent entry a newly chosen file continues, if any (a refused one is never continued). */
  match(account: string, file: File): Unsent | undefined {
    return matchIn(readAll(), account, file);
  },
  /**
   * The refusals of this account, handed over to be reported and forgotten at once: a refusal
   * is told once after a reload, on whichever page opens first, and never again.
   */
  takeRefused(account: string): Unsent[] {
    const all = readAll();
    const taken = all.filter((u) => u.account === account && u.refused !== undefined);
    if (taken.length > 0) writeAll(all.filter((u) => !taken.includes(u)));
    return taken;
  },
  /**
   * A new run of a batch decided afresh what it still has to send: its older entries that are
   * not among those files arrived meanwhile (or were not chosen this time, and the next full run
   * finds them again), so they stop counting as "still to send".
   */
  keepOnly(account: string, batch: string, files: readonly File[], spare: ReadonlySet<string> = new Set()): void {
    const all = readAll();
    const wanted = new Set(files.map(fileKey));
    const kept = all.filter(
      (u) => u.account !== account || u.batch !== batch || u.refused !== undefined || spare.has(u.id) || wanted.has(fileKey(u)),
    );
    if (kept.length !== all.length) writeAll(kept);
  },
  /** Chosen again on purpose (after making room, say): an earlier refusal of these files is old news. */
  forgetRefused(account: string, files: readonly File[]): void {
    const all = readAll();
    const kept = all.filter(
      (u) => !(u.account === account && u.refused !== undefined && files.some((f) => f.name === u.name && f.size === u.size)),
    );
    if (kept.length !== all.length) writeAll(kept);
  },
  forget(account: string): void {
    writeAll(readAll().filter((u) => u.account !== account));
  },
};

/** The entry a newly chosen file continues, among entries read once for a whole batch. */
export function matchIn(entries: readonly Unsent[], account: string, file: File): Unsent | undefined {
  return entries.find((u) => u.account === account && u.refused === undefined && sameFile(u, file));
}
