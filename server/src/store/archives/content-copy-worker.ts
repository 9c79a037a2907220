import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';
import { CANCELLED, TURNS, type FromCopyWorker, type ToCopyWorker } from './content-copy-protocol.ts';
import { copyOut, storeIn, type ThreadJob } from './content-copy-thread.ts';

/**
 * A worker thread that copies files into and out of a folder archive (content-copiers.ts sends it
 * descriptors the server opened with its checks, and an order), one file at a time with blocking
 * reads and writes (content-copy-thread.ts). Its heap is a few megabytes, so the collections that
 * a gigabyte of short-lived buffers sets off cost next to nothing here, where on the server's own
 * heap each was a full mark of everything the server holds. A job's cancel and its turns behind
 * the family's requests come through memory shared with the server (the thread's event loop is
 * busy with the copy): the server flips the cells and wakes the thread.
 */
/** As the media workers (nice 10): a backup's copying yields the cores to the requests the family is waiting on. */
const COPY_NICENESS = 10;
/**
 * 256 KiB (measured: reads and writes of a megabyte cost the kernel about twice as much, the
 * copies falling out of the CPU's cache), reused for every read of every file.
 */
const buffer = Buffer.allocUnsafeSlow(256 * 1024);
const port = parentPort!;
lowerPriority();
const post = (message: FromCopyWorker) => port.postMessage(message);

port.on('message', (message: ToCopyWorker) => {
  const { id } = message;
  const cells = new Int32Array(message.cells);
  const cancelled = () => Atomics.load(cells, CANCELLED) !== 0;
  let turnsAsked = 0;
  const job: ThreadJob = {
    throwIfCancelled() {
      if (cancelled()) throw new DOMException('the copy was cancelled', 'AbortError');
    },
    waitTurn() {
      turnsAsked += 1;
      post({ kind: 'pace', id });
      // The server adds a turn when the run may go on, and one when it cancels: either wakes this.
      for (let turns = Atomics.load(cells, TURNS); turns < turnsAsked && !cancelled(); turns = Atomics.load(cells, TURNS))
        Atomics.wait(cells, TURNS, turns);
    },
    onBytes: (n) => post({ kind: 'bytes', id, n }),
  };
  try {
    const result =
      message.kind === 'copy'
        ? copyOut(message.fd, message.order, job, buffer)
        : storeIn(message.source, message.target, message.order, job, buffer);
    post({ kind: 'done', id, result });
  } catch (caught) {
    const error = caught as NodeJS.ErrnoException;
    const cause = error instanceof ArchiveFileDamaged || error instanceof SourceUnreadable ? (error.cause as NodeJS.ErrnoException) : error;
    post({
      kind: 'failed',
      id,
      failure: {
        damaged: error instanceof ArchiveFileDamaged,
        source: error instanceof SourceUnreadable,
        aborted: error.name === 'AbortError' || cancelled(),
        message: String(cause?.message ?? error.message),
        ...(cause?.code !== undefined && { code: cause.code }),
      },
    });
  }
});
// Told last: jobs sent before this wait in the port, and a thread that never says it could not start here.
post({ kind: 'ready' });

/**
 * This thread at a lower priority, where the OS gives each thread its own (Linux: setpriority on
 * the thread's id, found in /proc/thread-self). Elsewhere it runs as the server does, paced by
 * its turns alone.
 */
function lowerPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(tid) && tid > 0) os.setPriority(tid, COPY_NICENESS);
  } catch {
    // No /proc (Windows, macOS), or not allowed: the same work at the server's priority.
  }
}
