/**
 * Helpers of the byte-moving benchmarks (upload, download): a large file of incompressible
 * bytes, a free port, a counting download client, a tus-js-client upload from a file, and `sync`.
 */
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { promisify } from 'node:util';
import * as tus from 'tus-js-client';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;

/**
 * Writes `bytes` of random-looking data: one 64 MiB random block, written again and again
 * with a different block number stamped every 4 KiB, so no two pages are alike and nothing
 * on the path can compress or deduplicate it. Takes a second or two for 1 GiB.
 */
export async function writeNoiseFile(file: string, bytes: number): Promise<void> {
  const block = crypto.randomBytes(64 * MiB);
  const handle = await fsp.open(file, 'w');
  try {
    for (let offset = 0, n = 0; offset < bytes; offset += block.length, n++) {
      for (let page = 0; page < block.length; page += 4096) block.writeUInt32LE(n, page);
      const length = Math.min(block.length, bytes - offset);
      await handle.write(block, 0, length, offset);
    }
  } finally {
    await handle.close();
  }
}

/** A port nobody listens on right now on 127.0.0.1 (for a child that cannot say its own). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits (bounded) until something accepts TCP connections on 127.0.0.1:port. */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (performance.now() > deadline) throw new Error(`nothing listens on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface Transfer {
  status: number;
  /** Body bytes received. */
  bytes: number;
  ms: number;
  headers: Record<string, string>;
  /** Over HTTPS: the TLS version and the cipher suite (its IANA name) the two ends agreed on. */
  tls?: { protocol: string; suite: string };
}

/** How an `https:` download's client connects; the certificate is not checked (the bench talks to its own children on 127.0.0.1). */
export interface TlsClientOptions {
  /** OpenSSL's names: TLS 1.3 suites ("TLS_AES_256_GCM_SHA384") and/or TLS 1.2 ciphers, ':'-separated. */
  ciphers?: string;
  minVersion?: tls.SecureVersion;
  maxVersion?: tls.SecureVersion;
}

/**
 * GET over a bare TCP socket (HTTP/1.1, `Connection: close`) that parses the head and then
 * only counts body bytes: the same client for the server and its reference, and a light
 * one (node's http client spends as much CPU again in its parser and streams), so the
 * client leaves as much of the machine as it can to the side being measured. An `https:` URL
 * is fetched the same way over a TLS socket, with `tlsOptions` (e.g. one cipher suite for both sides).
 */
export function download(url: string, headers: Record<string, string>, tlsOptions: TlsClientOptions = {}): Promise<Transfer> {
  const { protocol, hostname, port, pathname, search } = new URL(url);
  if (hostname !== '127.0.0.1') throw new Error(`the bench only talks to 127.0.0.1, not ${hostname}`);
  const head =
    `GET ${pathname}${search} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n` +
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('') +
    '\r\n';
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let agreed: Transfer['tls'];
    const socket: net.Socket =
      protocol === 'https:'
        ? tls.connect({ host: hostname, port: Number(port), rejectUnauthorized: false, ...tlsOptions }, function (this: tls.TLSSocket) {
            const suite = this.getCipher();
            agreed = { protocol: this.getProtocol() ?? '', suite: suite.standardName || suite.name };
            this.write(head);
          })
        : net.connect(Number(port), hostname, () => socket.write(head));
    let pending: Buffer | null = Buffer.alloc(0);
    let status = 0;
    let parsed: Record<string, string> = {};
    let bytes = 0;
    socket.setTimeout(120_000, () => socket.destroy(new Error(`GET ${url} timed out`)));
    socket.on('data', (chunk: Buffer) => {
      if (pending === null) {
        bytes += chunk.length;
        return;
      }
      pending = Buffer.concat([pending, chunk]);
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) {
        if (pending.length > 65_536) socket.destroy(new Error('response head over 64 KiB'));
        return;
      }
      const lines = pending.subarray(0, end).toString('latin1').split('\r\n');
      status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1] ?? 0);
      parsed = Object.fromEntries(
        lines.slice(1).map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      bytes = pending.length - end - 4;
      pending = null;
    });
    socket.once('error', reject);
    socket.once('end', () => {
      const ms = performance.now() - started;
      const length = parsed['content-length'];
      if (length !== undefined && Number(length) !== bytes) reject(new Error(`GET ${url}: ${bytes} body bytes, Content-Length ${length}`));
      else resolve({ status, bytes, ms, headers: parsed, ...(agreed && { tls: agreed }) });
    });
  });
}

/** One plain HTTP PUT of the first `bytes` of a file as the body (no protocol on top); resolves with the answer's text. */
export function putFile(
  url: string,
  file: string,
  bytes: number,
  headers: Record<string, string> = {},
): Promise<{ status: number; ms: number; body: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      url,
      { method: 'PUT', headers: { 'content-length': String(bytes), 'content-type': 'application/octet-stream', ...headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.once('error', reject);
        res.once('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, body }));
      },
    );
    req.once('error', reject);
    req.setTimeout(300_000, () => req.destroy(new Error(`PUT ${url} timed out`)));
    const source = fs.createReadStream(file, { end: bytes - 1 });
    source.once('error', (error) => req.destroy(error));
    source.pipe(req);
  });
}

export interface TusResult {
  ms: number;
  /** The `Service-Node-Id` of the completing response (the server's; null elsewhere). */
  nodeId: string | null;
}

/**
 * tus-js-client uploading the first `bytes` of a file read from disk (a fs.ReadStream, as the Node client reads
 * files), with the settings the benchmark compares: fixed chunk size, no retries.
 */
export function tusUpload(
  endpoint: string,
  file: string,
  bytes: number,
  chunkSize: number,
  headers: Record<string, string> = {},
): Promise<TusResult> {
  return new Promise((resolve, reject) => {
    let nodeId: string | null = null;
    const started = performance.now();
    // The client uploads the stream's start..end range: `bytes` from the start of the file.
    const upload = new tus.Upload(fs.createReadStream(file, { start: 0, end: bytes - 1 }), {
      endpoint,
      chunkSize,
      retryDelays: [],
      headers,
      metadata: { filename: 'bench.bin', filetype: 'application/octet-stream' },
      storeFingerprintForResuming: false,
      onAfterResponse: (_req, res) => {
        nodeId = res.getHeader('Service-Node-Id') ?? nodeId;
      },
      onError: reject,
      onSuccess: () => resolve({ ms: performance.now() - started, nodeId }),
    });
    upload.start();
  });
}

const execFileAsync = promisify(execFile);

/** Flushes every dirty page to disk, so one run's writeback does not land in the next one's time. */
export async function syncDisks(): Promise<void> {
  await execFileAsync('sync', [], { timeout: 120_000 });
}

export const mibPerSecond = (bytes: number, ms: number) => bytes / MiB / (ms / 1000);
