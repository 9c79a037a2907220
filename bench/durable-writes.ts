import path from 'node:path';
import Database from 'better-sqlite3';
import { login, OWNER, setupOwner } from '../server/test/helpers/accounts.ts';
import { cpuMs, ownCpuMs, removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';

const SESSIONS = 8;
const WARMUP_MS = 1_000;
/** Server and reference phases alternate, so a change in machine load hits both alike. */
const ROUNDS = 3;
const SERVER_PHASE_MS = 3_000;
const REFERENCE_PHASE_MS = 1_500;
const MAX_OPS = 100_000;

/**
 * Durable writes through the whole stack: refresh-token rotations (each one a WAL transaction
 * fsynced before the 200 leaves), 8 sessions rotating their own chain in parallel against the
 * real server in its own process. Reference: better-sqlite3 in WAL mode with synchronous=FULL
 * committing one single-row INSERT per transaction, in the same OS temp dir (same filesystem),
 * in phases alternating with the server's.
 */
export async function benchDurableWrites(): Promise<BenchResult> {
  const bench = await startBenchServer();
  const refDir = await tempDir('hearth-bench-sqlite-');
  const db = new Database(path.join(refDir, 'reference.db'));
  const server = { ops: 0, elapsedMs: 0, cpuMs: 0, latencies: [] as number[] };
  const reference = { ops: 0, elapsedMs: 0, cpuMs: 0 };
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.exec('CREATE TABLE writes (id INTEGER PRIMARY KEY, token_hash TEXT NOT NULL, at INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO writes (token_hash, at) VALUES (?, ?)');
    const commit = db.transaction((hash: string, at: number) => insert.run(hash, at));

    await setupOwner(bench.client);
    const sessions = await Promise.all(Array.from({ length: SESSIONS }, () => login(bench.client, OWNER.username, OWNER.password)));
    const chains = sessions.map((s) => s.refresh);
    const rotate = async (i: number) => {
      const res = await bench.client.post('/auth/refresh', { refresh_token: chains[i] });
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${JSON.stringify(res.body)}`);
      chains[i] = res.body.refresh_token;
    };
    const serverPhase = async (windowMs: number, record: boolean) => {
      const cpu0 = cpuMs(bench.pid);
      const started = performance.now();
      const deadline = started + windowMs;
      let ops = 0;
      await Promise.all(
        chains.map(async (_, i) => {
          while (performance.now() < deadline && ops < MAX_OPS) {
            const t0 = performance.now();
            await rotate(i);
            ops++;
            if (record) server.latencies.push(performance.now() - t0);
          }
        }),
      );
      if (!record) return;
      server.ops += ops;
      server.elapsedMs += performance.now() - started;
      server.cpuMs += cpuMs(bench.pid) - cpu0;
    };
    const referencePhase = (windowMs: number) => {
      const cpu0 = ownCpuMs();
      const started = performance.now();
      const deadline = started + windowMs;
      let ops = 0;
      while (performance.now() < deadline && ops < MAX_OPS) {
        commit(`token-${reference.ops + ops}`, Date.now());
        ops++;
      }
      reference.ops += ops;
      reference.elapsedMs += performance.now() - started;
      reference.cpuMs += ownCpuMs() - cpu0;
    };

    await serverPhase(WARMUP_MS, false);
    for (let round = 1; round <= ROUNDS; round++) {
      log(
        `  round ${round}/${ROUNDS}: ${SESSIONS} sessions rotating for ${SERVER_PHASE_MS / 1000} s, then raw sqlite for ${REFERENCE_PHASE_MS / 1000} s`,
      );
      await serverPhase(SERVER_PHASE_MS, true);
      referencePhase(REFERENCE_PHASE_MS);
    }
  } finally {
    db.close();
    await Promise.all([bench.close(), removeTempDir(refDir)]);
  }

  const s = summarize(server.latencies);
  return {
    name: 'durable writes',
    rows: [
      {
        figure: 'refresh rotations per second',
        value: (server.ops / server.elapsedMs) * 1000,
        reference: (reference.ops / reference.elapsedMs) * 1000,
        unit: '/s',
        better: 'higher',
        referenceIs: 'better-sqlite3, WAL + synchronous=FULL, one single-row INSERT per transaction, same filesystem (commits/s)',
      },
    ],
    notes: [
      `${server.ops} rotations in ${(server.elapsedMs / 1000).toFixed(1)} s, latency p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms; ` +
        `${reference.ops} reference commits in ${(reference.elapsedMs / 1000).toFixed(1)} s.`,
      `CPU per write: server process ${(server.cpuMs / server.ops).toFixed(2)} ms per rotation (HTTP, JSON, validation, tokens, ` +
        `one fsynced transaction), raw sqlite ${(reference.cpuMs / reference.ops).toFixed(2)} ms per commit.`,
    ],
  };
}
