import crypto from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { DEFAULT_CONFIG } from '../server/src/config.ts';
import { OWNER, setupOwner } from '../server/test/helpers/accounts.ts';
import { cpuMs, ownCpuMs } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { PRODUCTION_HASH_COST, startBenchServer } from './lib/server.ts';
import { summarize } from './lib/stats.ts';

const CLIENTS = 8;
/** Server and reference phases alternate, so a change in machine load hits both alike. */
const ROUNDS = 3;
const SERVER_PHASE_MS = 8_000;
const REFERENCE_PHASE_MS = 4_000;
/** Upper bound on operations per phase whatever the clock says. */
const MAX_OPS = 1_000;
const UNCONTENDED_SAMPLES = 4;

/** The server's scrypt parameters (server/src/services/passwords.ts). */
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

async function rawHash(): Promise<void> {
  const n = PRODUCTION_HASH_COST;
  await scrypt(OWNER.password, crypto.randomBytes(16), KEY_LENGTH, { N: n, r: R, p: P, maxmem: 256 * n * R + 1024 * 1024 });
}

interface Tally {
  latencies: number[];
  ops: number;
  elapsedMs: number;
  cpuMs: number;
}

const tally = (): Tally => ({ latencies: [], ops: 0, elapsedMs: 0, cpuMs: 0 });

/**
 * `concurrency` closed loops of `work` until the phase ends (in-flight calls finish and count).
 * `cpu` reads the CPU clock of whichever process does the work.
 */
async function phase(into: Tally, concurrency: number, windowMs: number, work: () => Promise<void>, cpu: () => number) {
  const cpu0 = cpu();
  const started = performance.now();
  const deadline = started + windowMs;
  let ops = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && ops < MAX_OPS) {
        const t0 = performance.now();
        await work();
        into.latencies.push(performance.now() - t0);
        ops++;
      }
    }),
  );
  into.ops += ops;
  into.elapsedMs += performance.now() - started;
  into.cpuMs += cpu() - cpu0;
}

async function timeEach(count: number, work: () => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await work();
    samples.push(performance.now() - t0);
  }
  return samples;
}

/**
 * Password sign-in against the real server in its own process at the production scrypt cost,
 * 8 clients in closed loops. Reference: bare node:crypto scrypt with the same parameters at
 * the same concurrency in this process while the server sits idle, in alternating phases.
 */
export async function benchSignin(): Promise<BenchResult> {
  const bench = await startBenchServer();
  const server = tally();
  const reference = tally();
  let uncontended: number[];
  let single: number[];
  try {
    await setupOwner(bench.client);
    const signIn = async () => {
      const res = await bench.client.post('/auth/login', { username: OWNER.username, password: OWNER.password });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
    };
    await signIn(); // warm-up
    uncontended = await timeEach(UNCONTENDED_SAMPLES, signIn);
    single = await timeEach(UNCONTENDED_SAMPLES, rawHash);
    for (let round = 1; round <= ROUNDS; round++) {
      log(`  round ${round}/${ROUNDS}: ${CLIENTS} clients signing in for ${SERVER_PHASE_MS / 1000} s, then raw scrypt x${CLIENTS} for ${REFERENCE_PHASE_MS / 1000} s`);
      await phase(server, CLIENTS, SERVER_PHASE_MS, signIn, () => cpuMs(bench.pid));
      await phase(reference, CLIENTS, REFERENCE_PHASE_MS, rawHash, ownCpuMs);
    }
  } finally {
    await bench.close();
  }

  const s = summarize(server.latencies);
  const r = summarize(reference.latencies);
  const refIs = `node:crypto scrypt N=${PRODUCTION_HASH_COST} r=${R} p=${P}, ${CLIENTS} at once, in the bench process`;
  return {
    name: 'sign-in',
    rows: [
      { figure: 'sign-in p50, 8 clients', value: s.p50, reference: r.p50, unit: 'ms', better: 'lower', referenceIs: `${refIs} (per-hash p50)` },
      { figure: 'sign-in p99, 8 clients', value: s.p99, reference: r.p99, unit: 'ms', better: 'lower', referenceIs: `${refIs} (per-hash p99)` },
      {
        figure: 'sign-ins per second, 8 clients',
        value: (server.ops / server.elapsedMs) * 1000,
        reference: (reference.ops / reference.elapsedMs) * 1000,
        unit: '/s',
        better: 'higher',
        referenceIs: `${refIs} (hashes/s)`,
      },
      {
        figure: 'sign-in p50, 1 client',
        value: summarize(uncontended).p50,
        reference: summarize(single).p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: 'one scrypt hash with the same parameters, nothing else in flight',
      },
    ],
    notes: [
      `${s.count} sign-ins in ${(server.elapsedMs / 1000).toFixed(1)} s over ${ROUNDS} phases (p99 of so few samples is near the max, ` +
        `${s.max.toFixed(0)} ms); ${r.count} reference hashes in ${(reference.elapsedMs / 1000).toFixed(1)} s.`,
      `CPU per operation (less sensitive to other load on the machine): server ${(server.cpuMs / server.ops).toFixed(0)} ms per sign-in, ` +
        `raw scrypt ${(reference.cpuMs / reference.ops).toFixed(0)} ms per hash.`,
      `${os.availableParallelism()} cores; the server hashes at most ${DEFAULT_CONFIG.passwordHashConcurrency} passwords at once ` +
        `(passwordHashConcurrency), the reference up to ${process.env.UV_THREADPOOL_SIZE ?? 4} (libuv pool); 8-client latency is mostly queueing.`,
    ],
  };
}
