import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import type { HostReply, HostRequest } from './lib/ws-host.ts';
import { removeTempDir, rssKb, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { sleep, summarize } from './lib/stats.ts';

const CLIENTS = 1_000;
const CONNECT_BATCH = 100;
const WARMUP_EVENTS = 5;
const EVENTS = 50;
/** Longest wait for one event to reach every client before moving on. */
const EVENT_TIMEOUT_MS = 5_000;
const GAP_MS = 20;

const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/ws-host.ts');

interface Host {
  child: ChildProcess;
  port: number;
  send(message: HostRequest): void;
  next(): Promise<HostReply>;
}

async function startHost(mode: 'hearth' | 'reference', dataDir?: string): Promise<Host> {
  const args = ['--import', 'tsx', HOST, mode, ...(dataDir ? [dataDir] : [])];
  const child = track(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] }));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const replies: HostReply[] = [];
  const waiters: ((reply: HostReply) => void)[] = [];
  child.on('message', (message: HostReply) => {
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else replies.push(message);
  });
  const next = () =>
    new Promise<HostReply>((resolve, reject) => {
      const queued = replies.shift();
      if (queued) return resolve(queued);
      const timer = setTimeout(() => reject(new Error(`${mode} host did not answer:\n${output}`)), 30_000);
      waiters.push((reply) => {
        clearTimeout(timer);
        resolve(reply);
      });
    });
  const ready = await next();
  if (ready.type !== 'ready') throw new Error(`unexpected first message from ${mode} host`);
  return { child, port: ready.port, send: (message) => child.send(message), next };
}

/** The 1,000 clients of one host, and the delays they saw. */
class Fleet {
  readonly latencies: number[] = [];
  missing = 0;
  private readonly sockets: WebSocket[] = [];
  private readonly sentAt = new Map<number, number>();
  private readonly received = new Map<number, number>();
  private waiting: { seq: number; done: () => void } | null = null;

  constructor(
    readonly host: Host,
    private readonly url: string,
    private readonly headers: Record<string, string>,
  ) {}

  async connect(): Promise<void> {
    for (let i = 0; i < CLIENTS; i += CONNECT_BATCH) {
      const batch = Array.from({ length: Math.min(CONNECT_BATCH, CLIENTS - i) }, () => {
        const ws = new WebSocket(this.url, { headers: this.headers, perMessageDeflate: false });
        this.sockets.push(ws);
        ws.on('message', (data) => this.onMessage(data));
        return new Promise<void>((resolve, reject) => {
          ws.once('open', () => resolve());
          ws.once('error', reject);
          ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade answered ${res.statusCode}`)));
        });
      });
      await Promise.all(batch);
    }
    this.host.send({ type: 'count' });
    const count = await this.host.next();
    if (count.type !== 'count' || count.connections !== CLIENTS) {
      throw new Error(`host sees ${count.type === 'count' ? count.connections : '?'} connections, expected ${CLIENTS}`);
    }
  }

  /** Publishes one event and waits until every client has it (or the timeout passes). */
  async publish(seq: number, record: boolean): Promise<void> {
    const all = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, EVENT_TIMEOUT_MS);
      this.waiting = {
        seq,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      };
    });
    this.sentAt.set(seq, performance.now());
    this.host.send({ type: 'publish', seq });
    await all;
    this.waiting = null;
    if (record) this.missing += CLIENTS - (this.received.get(seq) ?? 0);
  }

  close(): void {
    for (const ws of this.sockets) ws.terminate();
  }

  private onMessage(data: WebSocket.RawData): void {
    const at = performance.now();
    const message = JSON.parse(String(data)) as { payload: { settings: { server_name: string } } };
    const seq = Number(message.payload.settings.server_name.split(' ')[1]);
    const sent = this.sentAt.get(seq);
    if (sent === undefined) return;
    if (seq > WARMUP_EVENTS) this.latencies.push(at - sent);
    const n = (this.received.get(seq) ?? 0) + 1;
    this.received.set(seq, n);
    if (n === CLIENTS && this.waiting?.seq === seq) this.waiting.done();
  }
}

/**
 * One event to 1,000 connected WebSocket clients. The server runs in a child process (the
 * real `startServer` with production defaults, events published straight onto its bus over
 * IPC); the clients run here. Latency is from the IPC publish request to each client's
 * `message` callback, so it includes the IPC hop and the client-side parse. Reference: a
 * bare `ws` WebSocketServer in the same kind of child broadcasting the same message to its own
 * 1,000 clients; both are connected for the whole run and events alternate between them.
 */
export async function benchWsFanout(): Promise<BenchResult> {
  const dataDir = await tempDir('hearth-bench-ws-');
  const hosts: Host[] = [];
  const fleets: Fleet[] = [];
  let server: Fleet;
  let reference: Fleet;
  let rss: { server: number; reference: number };
  try {
    const hearth = await startHost('hearth', dataDir);
    hosts.push(hearth);
    const bare = await startHost('reference');
    hosts.push(bare);
    const owner = await setupOwner(new ApiClient(`http://127.0.0.1:${hearth.port}/api/v1`));
    server = new Fleet(hearth, `ws://127.0.0.1:${hearth.port}/api/v1/ws`, { authorization: `Bearer ${owner.access}` });
    reference = new Fleet(bare, `ws://127.0.0.1:${bare.port}/`, {});
    fleets.push(server, reference);
    log(`  connecting ${CLIENTS} clients to the server and ${CLIENTS} to the bare ws reference...`);
    await server.connect();
    await reference.connect();
    log(`  ${EVENTS} events to each, alternating...`);
    for (let seq = 1; seq <= WARMUP_EVENTS + EVENTS; seq++) {
      for (const fleet of seq % 2 === 0 ? [server, reference] : [reference, server]) {
        await fleet.publish(seq, seq > WARMUP_EVENTS);
        await sleep(GAP_MS);
      }
    }
    rss = { server: rssKb(hearth.child.pid!) / 1024, reference: rssKb(bare.child.pid!) / 1024 };
  } finally {
    for (const fleet of fleets) fleet.close();
    for (const host of hosts) if (host.child.connected) host.send({ type: 'stop' });
    await Promise.all(hosts.map((host) => stopChild(host.child)));
    await removeTempDir(dataDir);
  }

  const s = summarize(server.latencies);
  const r = summarize(reference.latencies);
  const refIs = `bare ws WebSocketServer in a child process broadcasting the same message to its own ${CLIENTS} clients`;
  return {
    name: 'ws fan-out',
    rows: [
      { figure: 'ws fan-out p50, 1,000 clients', value: s.p50, reference: r.p50, unit: 'ms', better: 'lower', referenceIs: refIs },
      { figure: 'ws fan-out p99, 1,000 clients', value: s.p99, reference: r.p99, unit: 'ms', better: 'lower', referenceIs: refIs },
      {
        figure: 'server RSS, 1,000 sockets open',
        value: rss.server,
        reference: rss.reference,
        unit: 'MiB',
        better: 'lower',
        referenceIs: 'the bare ws server process (also started with --import tsx) with its 1,000 sockets',
      },
    ],
    notes: [
      `${s.count} deliveries (${EVENTS} events x ${CLIENTS} clients), max ${s.max.toFixed(1)} ms, ${server.missing} missing; ` +
        `reference ${r.count} deliveries, max ${r.max.toFixed(1)} ms, ${reference.missing} missing.`,
      "latency = IPC publish request -> client message callback; the clients share this process and the machine's cores, " +
        'so the last client of each event also waits for the others to be parsed (the same for the reference).',
    ],
  };
}
