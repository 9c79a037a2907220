import { read, readlinkSync, writev } from 'node:fs';
import os from 'node:os';
import { promisify } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { ArchiveFileDamaged, SourceUnreadable } from './archive-errors.ts';
import { copyContent, storeContent } from './content-copy.ts';
import type { FromCopyWorker, ToCopyWorker } from './content-copiers.ts';

/**
 * A worker thread that copies files into and out of a folder archive (content-copiers.ts sends it
 * descriptors the server opened with its checks, and an order). Its heap is a few megabytes, so
 * the collections that a gigabyte of short-lived buffers sets off cost next to nothing here, where
 * on the server's own heap each was a full mark of everything the server holds.
 */
/** As the media workers (nice 10): a backup's copying yields the cores to the requests the family is waiting on. */
const COPY_NICENESS = 10;
const port = parentPort!;
lowerPriority();
const running = new Map<number, { abort: AbortController; go?: () => void }>();
const post = (message: FromCopyWorker) => port.postMessage(message);

port.on('message', (message: ToCopyWorker) => {
  if (message.kind === 'cancel') {
    const job = running.get(message.id);
    job?.abort.abort();
    job?.go?.();
    return;
  }
  if (message.kind === 'go') {
    running.get(message.id)?.go?.();
    return;
  }
  const { id } = message;
  const job: { abort: AbortController; go?: () => void } = { abort: new AbortController() };
  running.set(id, job);
  const { signal } = job.abort;
  const onBytes = (n: number) => post({ kind: 'bytes', id, n });
  // The server answers once the family's requests let the run go on (or at once when not paced).
  const pace = () =>
    new Promise<void>((resolve) => {
      job.go = resolve;
      post({ kind: 'pace', id });
    });
  const work =
    message.kind === 'copy'
      ? copyContent(readFrom(message.fd, signal), message.order, signal, onBytes)
      : storeContent(readFrom(message.source, signal), writerTo(message.target), message.order, signal, onBytes, pace);
  work
    .then(
      (result) => post({ kind: 'done', id, result }),
      (error: NodeJS.ErrnoException) => {
        const cause =
          error instanceof ArchiveFileDamaged || error instanceof SourceUnreadable ? (error.cause as NodeJS.ErrnoException) : error;
        post({
          kind: 'failed',
          id,
          failure: {
            damaged: error instanceof ArchiveFileDamaged,
            source: error instanceof SourceUnreadable,
            aborted: error.name === 'AbortError' || signal.aborted,
            message: String(cause?.message ?? error.message),
            ...(cause?.code !== undefined && { code: cause.code }),
          },
        });
      },
    )
    .finally(() => running.delete(id));
});
// Told last: jobs sent before this wait in the port, and a thread that never says it could not start here.
post({ kind: 'ready' });

const READ_SIZE = 256 * 1024;
const readAt = promisify(read);
const writevAt = promisify(writev);

/**
 * The file's bytes, 256 KiB at a time (measured: reads and writes of a megabyte cost the kernel
 * about twice as much, the copies falling out of the CPU's cache). The descriptor stays the
 * server's, which closes it once this job has answered: a read stream would close it at its end
 * (fs streams close their descriptor on destroy, autoClose or not).
 */
async function* readFrom(fd: number, signal: AbortSignal): AsyncGenerator<Buffer> {
  for (;;) {
    signal.throwIfAborted();
    const buffer = Buffer.allocUnsafe(READ_SIZE);
    const { bytesRead } = await readAt(fd, buffer, 0, READ_SIZE, null);
    if (bytesRead === 0) return;
    yield bytesRead === READ_SIZE ? buffer : buffer.subarray(0, bytesRead);
  }
}

/** Writes at the descriptor's position (a new file, from its start), as a FileHandle's writev does. */
function writerTo(fd: number) {
  return { writev: (buffers: Uint8Array[]) => writevAt(fd, buffers) };
}

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
