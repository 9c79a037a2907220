import { nameKey, numberedName } from './node-names.ts';

/**
 * Characters a name may hold in Hearth but not on a computer it is unzipped on. `\` matters most:
 * many unzippers read it as a folder separator, so `..\..\startup.bat` would land outside the
 * folder the family unzips into; `:` makes `C:x` an absolute path on Windows. The others are
 * refused by Windows' own unzipper, which would then stop halfway.
 */
const UNSAFE_IN_ZIP = /[\\:*?"<>|]/g;

/** A node's name as an entry of a zip: the same letters, but nothing an unzipper reads as a path. */
export function zipSafeName(name: string): string {
  return name.replace(UNSAFE_IN_ZIP, '_');
}

/**
 * Names for the entries of one folder of a zip, in the order given: each keeps its own name
 * (made zip-safe) unless another entry before it has it already, ignoring case as Windows and
 * macOS do; then it is numbered as an upload would be (`photo (1).jpg`), on a number no other
 * entry has. Entries whose own names are free are never the ones renumbered.
 */
export function zipEntryNames(entries: readonly { name: string; isFile: boolean }[]): string[] {
  const safe = entries.map((entry) => zipSafeName(entry.name));
  const taken = new Set<string>();
  const keeps = safe.map((name) => {
    const key = nameKey(name);
    if (taken.has(key)) return false;
    taken.add(key);
    return true;
  });
  return safe.map((name, i) => {
    if (keeps[i]) return name;
    for (let n = 1; ; n++) {
      const candidate = numberedName(name, n, entries[i]!.isFile);
      if (taken.has(nameKey(candidate))) continue;
      taken.add(nameKey(candidate));
      return candidate;
    }
  });
}
