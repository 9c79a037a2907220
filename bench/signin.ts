import crypto from 'node:crypto';
import os from 'node:os';
import { promisify } from 'node:util';
import { DEFAULT_CONFIG } from '../server/src/config.ts';
import { OWNER, createMember, setupOwner } from '../server/test/helpers/accounts.ts';
import { ClientFrom } from '../server/test/helpers/from-address.ts';
import { cpuMs, ownCpuMs } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { PRODUCTION_HASH_COST, startBenchServer } from './lib/server.ts';
import { sleep, summarize } from './lib/stats.ts';
import type { ApiClient } from '../server/test/helpers/server.ts';

const CLIENTS = 8;
/** Server and reference phases alternate, so a change in machine load hits both alike. */
const ROUNDS = 3;
const SERVER_PHASE_MS = 8_000;
const REFERENCE_PHASE_MS = 4_000;
/** Upper bound on operations per phase whatever the clock says. */
const MAX_OPS = 1_000;
const UNCONTENDED_SAMPLES = 4;
/** Bogus sign-ins sent at once in each flood round, from one address (issue 12, finding 2). */
const FLOOD = 300;
const FLOOD_ROUNDS = 4;
const FLOOD_HEAD_START_MS = 1_000;

/** The server's scrypt parameters (server/src/services/identity/passwords.ts). */
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
 * One real user's sign-in while a flood of bogus ones arrives, against the same sign-in on the
 * idle server, in alternating rounds. Each round sends FLOOD sign-ins for made-up accounts at
 * once from a fresh loopback address (a guesser on the Wi-Fi), then, FLOOD_HEAD_START_MS later
 * (the flood has reached the server by then; sooner, the owner's kept-alive connection would
 * overtake 300 fresh ones), the owner's from another address; the round ends when the flood
 * has been answered.
 */
async function floodRounds(api: string, signIn: () => Promise<void>) {
  const idle: number[] = [];
  const flooded: number[] = [];
  const answers = { verified: 0, refused: 0, other: 0 };
  for (let round = 1; round <= FLOOD_ROUNDS; round++) {
    log(`  flood round ${round}/${FLOOD_ROUNDS}: the owner signs in on the idle server, then beside ${FLOOD} bogus sign-ins`);
    idle.push(...(await timeEach(1, signIn)));
    const guesser = new ClientFrom(api, `127.0.0.${100 + round}`);
    const flood = Promise.all(
      Array.from({ length: FLOOD }, async (_, i) => {
        const res = await guesser.post('/auth/login', { username: `ghost-${round}-${i}`, password: 'not-a-real-password' });
        if (res.status === 401) answers.verified++;
        else if (res.status === 429 || res.status === 503) answers.refused++;
        else answers.other++;
      }),
    );
    await sleep(FLOOD_HEAD_START_MS);
    flooded.push(...(await timeEach(1, signIn)));
    await flood;
  }
  return { idle, flooded, answers };
}

/**
 * Password sign-in against the real server in its own process at the production scrypt cost,
 * 8 family members (8 accounts, 8 addresses) in closed loops. Reference: bare node:crypto
 * scrypt with the same parameters at the same concurrency in this process while the server
 * sits idle, in alternating phases. Then the flood rounds above.
 */
export async function benchSignin(): Promise<BenchResult> {
  const bench = await startBenchServer();
  const server = tally();
  const reference = tally();
  let uncontended: number[];
  let single: number[];
  let flood: Awaited<ReturnType<typeof floodRounds>>;
  try {
    const owner = await setupOwner(bench.client);
    const signInAs = (client: ApiClient, username: string, password: string) => async () => {
      const res = await client.post('/auth/login', { username, password });
      if (res.status !== 200) throw new Error(`sign-in answered ${res.status}: ${JSON.stringify(res.body)}`);
    };
    const signIn = signInAs(bench.client, OWNER.username, OWNER.password);
    // One account and one address per client, as a family signs in: guesses sharing an
    // account or an address are checked one at a time (issue 12, finding 1).
    const family = [signIn];
    for (let i = 1; i < CLIENTS; i++) {
      const member = await createMember(bench.client, owner, `member${i}`);
      family.push(signInAs(new ClientFrom(bench.server.api, `127.0.0.${10 + i}`), member.username, member.password));
    }
    await signIn(); // warm-up
    uncontended = await timeEach(UNCONTENDED_SAMPLES, signIn);
    single = await timeEach(UNCONTENDED_SAMPLES, rawHash);
    for (let round = 1; round <= ROUNDS; round++) {
      log(
        `  round ${round}/${ROUNDS}: ${CLIENTS} clients signing in for ${SERVER_PHASE_MS / 1000} s, then raw scrypt x${CLIENTS} for ${REFERENCE_PHASE_MS / 1000} s`,
      );
      let next = 0;
      await phase(
        server,
        CLIENTS,
        SERVER_PHASE_MS,
        () => family[next++ % CLIENTS]!(),
        () => cpuMs(bench.pid),
      );
      await phase(reference, CLIENTS, REFERENCE_PHASE_MS, rawHash, ownCpuMs);
    }
    flood = await floodRounds(bench.server.api, signIn);
  } finally {
    await bench.close();
  }

  const s = summarize(server.latencies);
  const r = summarize(reference.latencies);
  const refIs = `node:crypto scrypt N=${PRODUCTION_HASH_COST} r=${R} p=${P}, ${CLIENTS} at once, in the bench process`;
  return {
    name: 'sign-in',
    rows: [
      {
        figure: 'sign-in p50, 8 clients',
        value: s.p50,
        reference: r.p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: `${refIs} (per-hash p50)`,
      },
      {
        figure: 'sign-in p99, 8 clients',
        value: s.p99,
        reference: r.p99,
        unit: 'ms',
        better: 'lower',
        referenceIs: `${refIs} (per-hash p99)`,
      },
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
      {
        figure: `one user's sign-in beside ${FLOOD} bogus ones (goal <= 3x)`,
        value: summarize(flood.flooded).p50,
        reference: summarize(flood.idle).p50,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the same sign-in on the idle server, in alternating rounds (p50 of ${FLOOD_ROUNDS} each)`,
      },
    ],
    notes: [
      `${s.count} sign-ins in ${(server.elapsedMs / 1000).toFixed(1)} s over ${ROUNDS} phases (p99 of so few samples is near the max, ` +
        `${s.max.toFixed(0)} ms); ${r.count} reference hashes in ${(reference.elapsedMs / 1000).toFixed(1)} s.`,
      `CPU per operation (less sensitive to other load on the machine): server ${(server.cpuMs / server.ops).toFixed(0)} ms per sign-in, ` +
        `raw scrypt ${(reference.cpuMs / reference.ops).toFixed(0)} ms per hash.`,
      `${os.availableParallelism()} cores; the server hashes at most ${DEFAULT_CONFIG.passwordHashConcurrency} passwords at once ` +
        `(passwordHashConcurrency), the reference up to ${process.env.UV_THREADPOOL_SIZE ?? 4} (libuv pool); 8-client latency is mostly queueing.`,
      `Flood: ${FLOOD_ROUNDS} rounds of ${FLOOD} bogus sign-ins, each from a fresh address, the user's sign-in ` +
        `${FLOOD_HEAD_START_MS} ms after each flood began; of all ${FLOOD * FLOOD_ROUNDS}, ` +
        `${flood.answers.verified} were hashed (401), ${flood.answers.refused} refused at once (429/503), ${flood.answers.other} other. ` +
        `The user's sign-ins: ${flood.flooded.map((ms) => ms.toFixed(0)).join(', ')} ms beside the flood, ` +
        `${flood.idle.map((ms) => ms.toFixed(0)).join(', ')} ms idle.`,
    ],
  };
}
