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
  /**
   * Why the server refused it for good (a sentence for the person). Such a file is reported
   * once after a reload and then forgotten: choosing it again could only fail again.
   */
  refused?: string;
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

export const manifest = {
  forAccount(account: string): Unsent[] {
    return readAll().filter((u) => u.account === account);
  },
  add(entry: Unsent): void {
    writeAll([...readAll().filter((u) => u.id !== entry.id), entry]);
  },
  remove(id: string): void {
    writeAll(readAll().filter((u) => u.id !== id));
  },
  refuse(id: string, reason: string): void {
    writeAll(readAll().map((u) => (u.id === id ? { ...u, refused: reason } : u)));
  },
  /** The unsent entry a newly chosen file continues, if any (a refused one is never continued). */
  match(account: string, file: File): Unsent | undefined {
    return readAll().find(
      (u) =>
        u.account === account &&
        u.refused === undefined &&
        u.name === file.name &&
        u.size === file.size &&
        u.lastModified === file.lastModified,
    );
  },
  forgetRefused(account: string, file: File): void {
    writeAll(readAll().filter((u) => !(u.account === account && u.refused !== undefined && u.name === file.name && u.size === file.size)));
  },
  forget(account: string): void {
    writeAll(readAll().filter((u) => u.account !== account));
  },
};
