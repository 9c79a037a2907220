/**
 * Content files copied at once. Each ends with an fsync of the file and of its folder, which waits
 * for the disk; with a few under way, one file's read and hash overlap another's wait (on a
 * spinning USB disk as on an SSD), where one at a time leaves the disk idle between files.
 */
export const FILES_AT_ONCE = 4;

/**
 * Runs `work` on every item, `limit` at a time, in order of start. The first failure stops new
 * starts; the ones under way end first, so nothing is still writing when the caller goes on.
 */
export async function eachAtOnce<T>(items: Iterable<T>, limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    for (let next = iterator.next(); !next.done && failure === null; next = iterator.next()) {
      try {
        await work(next.value);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
