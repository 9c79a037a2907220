import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';

/** A response whose reader read its head and then stopped reading (or reads when told). */
export interface HeldResponse {
  status: number;
  headers: Record<string, string>;
  /** The error envelope of a refused request (its body is read whole; text when not JSON); null for a 2xx. */
  body: any;
  /** Bytes of the body that came in with the head, before the reader stopped. */
  bodyStart: number;
  socket: net.Socket;
  /** The reader goes away (as a closed tab does). */
  close(): void;
}

export interface HeldRequestOptions {
  headers?: Record<string, string>;
  /** The client's own loopback address (127.0.0.2...), as another device. */
  from?: string;
  /** Speak HTTPS (the server's own certificate, not checked here). */
  tls?: boolean;
}

/**
 * GETs `url` over a raw socket, reads the response's head and then reads nothing more: the
 * socket is paused, so the kernel's buffers fill and the server's writes stop being taken, as
 * with a phone that asked for a film and never read it (or a client that does so on purpose).
 */
export function heldGet(url: string, options: HeldRequestOptions = {}): Promise<HeldResponse> {
  const target = new URL(url);
  const connection = { host: target.hostname, port: Number(target.port), localAddress: options.from };
  const socket = options.tls ? tls.connect({ ...connection, servername: 'localhost', rejectUnauthorized: false }) : net.connect(connection);
  const head = Object.entries({ Host: target.host, ...options.headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\n${head}\r\n`);
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const rest = received.subarray(end + 4);
      const held = { status, headers, socket, body: null, bodyStart: rest.length, close: () => socket.destroy() };
      if (status >= 200 && status < 300) {
        socket.off('data', onData);
        socket.pause();
        return resolve(held);
      }
      if (rest.length < Number(headers['content-length'] ?? 0)) return;
      socket.off('data', onData);
      socket.destroy();
      const text = rest.toString('utf8');
      // The drive door refuses in XML (a DAV:error body): kept as text.
      resolve({ ...held, body: String(headers['content-type']).includes('json') ? JSON.parse(text) : text });
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

/** Content files (under the data folder's blobs/) this process holds open now: the server's, in these in-process tests. */
export function openContentFiles(dataDir: string): number {
  let open = 0;
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(dataDir) && target.includes(`${path.sep}blobs${path.sep}`)) open++;
    } catch {
      // closed while we looked
    }
  }
  return open;
}

/** Waits for `condition`, looking every 50 ms; fails saying `what` if it is still false after `withinMs`. */
export async function until(condition: () => boolean, what: string, withinMs: number): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`still not so after ${withinMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
