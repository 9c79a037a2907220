import { MAX_NAME_BYTES, nameBytes, shortenName } from '../../../../server/src/contract/names.ts';

/**
 * How a batch of chosen files meets the folder it goes to, before anything is sent: names
 * too long for the server, files already there, and files whose name is taken.
 */

/** A file chosen by the person, and the name it is sent under (shorter than its own when that was too long). */
export interface Chosen {
  file: File;
  name: string;
}

/** What the folder already holds under a name: enough to tell "already here" from "same name". */
export interface Existing {
  id: string;
  type: 'file' | 'folder';
  size: number;
}

export type ClashChoice = 'keep-both' | 'replace' | 'skip';
export type LongNamesChoice = 'shorten' | 'skip';

/** The chosen files whose names are over the server's limit, each with the shorter name it would get. */
export function tooLong(chosen: readonly Chosen[]): Map<Chosen, string> {
  return new Map(chosen.filter((one) => nameBytes(one.name) > MAX_NAME_BYTES).map((one) => [one, shortenName(one.name)]));
}

/** The batch after the one answer about its long names: sent shorter, or left out. */
export function afterLongNames(chosen: readonly Chosen[], shorter: ReadonlyMap<Chosen, string>, choice: LongNamesChoice): Chosen[] {
  return chosen.flatMap((one) => {
    const short = shorter.get(one);
    if (short === undefined) return [one];
    return choice === 'shorten' ? [{ file: one.file, name: short }] : [];
  });
}

export interface Sorted<N extends Existing> {
  /** Same name and size as a file already there: taken to be that file, and not sent. */
  alreadyHere: number;
  fresh: Chosen[];
  /** Same name as a file there (names are unique ignoring case): one question for the batch. */
  clashing: { chosen: Chosen; node: N }[];
}

/** Sorts a batch against the folder, whose names are keyed lower-cased. */
export function sortAgainstFolder<N extends Existing>(named: readonly Chosen[], existing: ReadonlyMap<string, N>): Sorted<N> {
  const sorted: Sorted<N> = { alreadyHere: 0, fresh: [], clashing: [] };
  for (const one of named) {
    const same = existing.get(one.name.toLowerCase());
    if (same && same.type === 'file' && same.size === one.file.size) sorted.alreadyHere += 1;
    else if (same && same.type === 'file') sorted.clashing.push({ chosen: one, node: same });
    // A folder of that name: the server gives the file a name of its own.
    else sorted.fresh.push(one);
  }
  return sorted;
}

/** What is sent after the answer about the clashing files, and which file each one replaces. */
export function afterClash<N extends Existing>(
  clashing: readonly { chosen: Chosen; node: N }[],
  choice: ClashChoice,
): { chosen: Chosen; replaceNodeId: string | null }[] {
  if (choice === 'skip') return [];
  return clashing.map(({ chosen, node }) => ({ chosen, replaceNodeId: choice === 'replace' ? node.id : null }));
}

/**
 * What tus remembers an upload by. It names the account and the place too: the same file chosen
 * again for the same place continues where it stopped, and never joins another account's upload.
 */
export function fingerprintOf(account: string, file: File, parentId: string | null, replaceNodeId: string | null): string {
  return ['hearth', account, parentId ?? 'root', replaceNodeId ?? 'new', file.name, file.type, file.size, file.lastModified].join('/');
}
