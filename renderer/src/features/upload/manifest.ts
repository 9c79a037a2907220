/**
 * What this browser was sending, kept in localStorage so a reload can say which files did not
 * arrive ("4 files not sent: choose them again"). A browser cannot reopen a file by itself:
 * the person chooses it again, and tus continues from the bytes the server already has.
 * Only names and sizes are kept, never content.
 */
export interface Unsent {
  id: string;
  account: string;
  name: string;
  size: number;
  lastModified: number;
  parentId: string | null;
  replaceNodeId: string | null;
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
  /** The unsent entry a newly chosen file continues, if any. */
  match(account: string, file: File): Unsent | undefined {
    return readAll().find((u) => u.account === account && u.name === file.name && u.size === file.size && u.lastModified === file.lastModified);
  },
  forget(account: string): void {
    writeAll(readAll().filter((u) => u.account !== account));
  },
};
