import { read } from 'node:fs';
import { promisify } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { ArchiveFileDamaged } from './archive-errors.ts';
import { copyContent } from './content-copy.ts';
import type { FromCopyWorker, ToCopyWorker } from './content-copiers.ts';

/**
 * A worker thread that copies archive files out (content-copiers.ts sends it a descriptor the
 * server opened with its checks, and an order). Its heap is a few megabytes, so the collections
 * that a gigabyte of short-lived buffers sets off cost next to nothing here, where on the server's
 * own heap each was a full mark of everything the server holds.
 */
const port = parentPort!;
const running = new Map<number, AbortController>();
const post = (message: FromCopyWorker) => port.postMessage(message);

port.on('message', (message: ToCopyWorker) => {
  if (message.kind === 'cancel') {
    running.get(message.id)?.abort();
    return;
  }
  const { id, fd, order } = message;
  const abort = new AbortController();
  running.set(id, abort);
  copyContent(readFrom(fd, abort.signal), order, abort.signal, (n) => post({ kind: 'bytes', id, n }))
    .then(
      (result) => post({ kind: 'done', id, result }),
      (error: NodeJS.ErrnoException) =>
        post({
          kind: 'failed',
          id,
          failure: {
            damaged: error instanceof ArchiveFileDamaged,
            aborted: error.name === 'AbortError',
            message: error instanceof ArchiveFileDamaged ? String((error.cause as Error | undefined)?.message) : error.message,
            ...(error.code !== undefined && { code: error.code }),
          },
        }),
    )
    .finally(() => running.delete(id));
});

const READ_SIZE = 256 * 1024;
const readAt = promisify(read);

/**
 * The file's bytes, a megabyte at a time. The descriptor stays the server's, which closes it once
 * this job has answered: a read stream would close it at its end (fs streams close their
 * descriptor on destroy, autoClose or not).
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
