/**
 * The upload benchmark's references, each in its own process like the server, so CPU time
 * can be read per process from /proc. Prints `ready <port>` once listening on 127.0.0.1.
 *
 *   node --import tsx bench/lib/upload-host.ts plain <dir>
 *     PUT /<name>: pipes the request body to <dir>/<name>, fsyncs it (the server fsyncs a
 *     completed upload before acknowledging it), answers 200 with {"bytes","fsync_ms"}.
 *   node --import tsx bench/lib/upload-host.ts tus <dir>
 *     A standalone @tus/server with @tus/file-store in <dir>, at /files.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { Server } from '@tus/server';

const [mode, dir] = process.argv.slice(2);
if (!dir || (mode !== 'plain' && mode !== 'tus')) {
  process.stderr.write('usage: upload-host.ts plain|tus <dir>\n');
  process.exit(2);
}

let server: http.Server;
if (mode === 'plain') {
  server = http.createServer((req, res) => {
    const name = path.basename(req.url ?? '');
    if (req.method !== 'PUT' || !/^[\w.-]+$/.test(name)) {
      res.writeHead(404).end();
      return;
    }
    const file = path.join(dir, name);
    void (async () => {
      try {
        await pipeline(req, fs.createWriteStream(file));
        const t0 = performance.now();
        const handle = await fsp.open(file, 'r+');
        await handle.sync();
        await handle.close();
        const fsyncMs = performance.now() - t0;
        const bytes = (await fsp.stat(file)).size;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ bytes, fsync_ms: fsyncMs }));
      } catch (error) {
        res.writeHead(500).end(String(error));
      }
    })();
  });
} else {
  const tus = new Server({ path: '/files', datastore: new FileStore({ directory: dir }) });
  server = http.createServer((req, res) => void tus.handle(req, res));
}
server.listen(0, '127.0.0.1', () => process.stdout.write(`ready ${(server.address() as AddressInfo).port}\n`));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
