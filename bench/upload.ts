import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { cpuMs, ownCpuMs, removeTempDir, settled, spawnNodeMatch, stopChild, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { GiB, MiB, mibPerSecond, putFile, syncDisks, tusUpload, writeNoiseFile } from './lib/transfer.ts';

const FILE_BYTES = GiB;
const CHUNK_BYTES = 32 * MiB;
/** One small unrecorded upload per target first, so no one pays for a cold JIT or cold paths. */
const WARMUP_BYTES = 64 * MiB;
/** Each round uploads the whole file once to every target, in a rotating order. */
const ROUNDS = 3;
const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/upload-host.ts');

interface Target {
  name: 'server' | 'plain' | '@tus';
  pid: number;
  /** Uploads the first `bytes` of the source file; resolves when the target acknowledged all of it. */
  upload(bytes: number): Promise<number>;
  /** Removes what the upload wrote, where the bench can (outside the timed part). */
  cleanup(): Promise<void>;
  rounds: { ms: number; serverCpuMs: number; clientCpuMs: number }[];
}

/**
 * 1 GiB with tus-js-client, 32 MiB chunks, streamed from a file, into the real server in its
 * own process (LOG_LEVEL=warn). References in the same run, each a child process too:
 * a plain node `http` server piping one PUT of the same bytes to a file and fsyncing it
 * (the practical limit: no protocol, one request), and a standalone @tus/server with
 * @tus/file-store receiving the same tus-js-client upload. CPU time of each receiving
 * process comes from /proc/PID/stat, which holds steadier than throughput on a busy machine.
 */
export async function benchUpload(): Promise<BenchResult> {
  const work = await tempDir('hearth-bench-upload-');
  const source = path.join(work, 'source.bin');
  const plainDir = path.join(work, 'plain');
  const tusDir = path.join(work, 'tus');
  await Promise.all([fsp.mkdir(plainDir), fsp.mkdir(tusDir)]);
  const bench = await startBenchServer({ LOG_LEVEL: 'warn' });
  const children: import('node:child_process').ChildProcess[] = [];
  const fsyncMs: number[] = [];
  try {
    log(`  writing ${FILE_BYTES / GiB} GiB of noise to a temp file...`);
    await writeNoiseFile(source, FILE_BYTES);
    const plain = await spawnNodeMatch(['--import', 'tsx', HOST, 'plain', plainDir], /ready (\d+)/);
    children.push(plain.child);
    const tusRef = await spawnNodeMatch(['--import', 'tsx', HOST, 'tus', tusDir], /ready (\d+)/);
    children.push(tusRef.child);
    const owner = await setupOwner(bench.client);
    // The owner's setup sets the server making its home certificates (RSA keys on the thread
    // pool, a CPU second or more): counted in the first round's CPU when it overlapped it.
    await settled(bench.pid);

    let seq = 0;
    const targets: Target[] = [
      {
        name: 'server',
        pid: bench.pid,
        upload: async (bytes) => {
          const result = await tusUpload(`${bench.server.api}/uploads`, source, bytes, CHUNK_BYTES, {
            Authorization: `Bearer ${owner.access}`,
          });
          if (!result.nodeId) throw new Error('the server did not answer a node id for the completed upload');
          return result.ms;
        },
        // The server's copies stay in its data dir until the end (a few GiB of temp space).
        cleanup: async () => {},
        rounds: [],
      },
      {
        name: 'plain',
        pid: plain.child.pid!,
        upload: async (bytes) => {
          const result = await putFile(`http://127.0.0.1:${plain.match[1]}/upload-${seq++}.bin`, source, bytes);
          const body = JSON.parse(result.body) as { bytes: number; fsync_ms: number };
          if (result.status !== 200 || body.bytes !== bytes) throw new Error(`plain PUT answered ${result.status}: ${result.body}`);
          if (bytes === FILE_BYTES) fsyncMs.push(body.fsync_ms);
          return result.ms;
        },
        cleanup: () => emptyDir(plainDir),
        rounds: [],
      },
      {
        name: '@tus',
        pid: tusRef.child.pid!,
        upload: async (bytes) => (await tusUpload(`http://127.0.0.1:${tusRef.match[1]}/files`, source, bytes, CHUNK_BYTES)).ms,
        cleanup: () => emptyDir(tusDir),
        rounds: [],
      },
    ];

    for (const target of targets) {
      await target.upload(WARMUP_BYTES);
      await target.cleanup();
    }
    for (let round = 0; round < ROUNDS; round++) {
      await markRound(source, round);
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const target of order) {
        // Writeback of the previous upload must not land in this one's time.
        await syncDisks();
        const cpu0 = cpuMs(target.pid);
        const own0 = ownCpuMs();
        const ms = await target.upload(FILE_BYTES);
        target.rounds.push({ ms, serverCpuMs: cpuMs(target.pid) - cpu0, clientCpuMs: ownCpuMs() - own0 });
        log(`  round ${round + 1}/${ROUNDS} ${target.name.padEnd(6)} ${mibPerSecond(FILE_BYTES, ms).toFixed(0)} MiB/s`);
        await target.cleanup();
      }
    }

    const [server, plainT, tusT] = targets as [Target, Target, Target];
    const rate = (t: Target) => mibPerSecond(FILE_BYTES * t.rounds.length, sum(t.rounds.map((r) => r.ms)));
    const cpuPerGiB = (t: Target, key: 'serverCpuMs' | 'clientCpuMs') =>
      sum(t.rounds.map((r) => r[key])) / ((FILE_BYTES * t.rounds.length) / GiB);
    const perRound = (t: Target) => t.rounds.map((r) => mibPerSecond(FILE_BYTES, r.ms).toFixed(0)).join(', ');
    return {
      name: 'upload',
      rows: [
        {
          figure: 'upload 1 GiB (tus, 32 MiB chunks) vs plain',
          value: rate(server),
          reference: rate(plainT),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs:
            'plain node http server in its own process piping one PUT of the same 1 GiB to a file, then one fsync; it hashes nothing (goal: server >= 0.8x)',
        },
        {
          figure: 'upload 1 GiB (tus, 32 MiB chunks) vs @tus',
          value: rate(server),
          reference: rate(tusT),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: 'standalone @tus/server + @tus/file-store in its own process, same tus-js-client settings (no fsync)',
        },
        {
          figure: 'upload receiver CPU per GiB vs plain',
          value: cpuPerGiB(server, 'serverCpuMs'),
          reference: cpuPerGiB(plainT, 'serverCpuMs'),
          unit: 'ms',
          better: 'lower',
          referenceIs: 'utime+stime of the plain http process per GiB received, /proc/PID/stat',
        },
        {
          figure: 'upload receiver CPU per GiB vs @tus',
          value: cpuPerGiB(server, 'serverCpuMs'),
          reference: cpuPerGiB(tusT, 'serverCpuMs'),
          unit: 'ms',
          better: 'lower',
          referenceIs: 'utime+stime of the @tus/server process per GiB received, /proc/PID/stat',
        },
      ],
      notes: [
        `${ROUNDS} rounds of ${FILE_BYTES / GiB} GiB each, order rotating, \`sync\` before each upload; MiB/s per round: ` +
          `server ${perRound(server)}; plain ${perRound(plainT)}; @tus ${perRound(tusT)}. Receiver CPU s per round: ` +
          [server, plainT, tusT].map((t) => `${t.name} ${t.rounds.map((r) => (r.serverCpuMs / 1000).toFixed(2)).join(', ')}`).join('; ') +
          '.',
        `Wall time is the client's: first request to the acknowledgement of the last byte. The server and plain ` +
          `both fsync before acknowledging (plain's fsync took ${fsyncMs.map((m) => m.toFixed(0)).join(', ')} ms); @tus/file-store does not fsync.`,
        'What the server does that plain does not: an fsync before each 32 MiB PATCH is answered (the offset it answers is on disk), ' +
          "the SHA-256 of every byte (the file's content id), and per request its session, quota and offset checks and one SQLite commit. " +
          "Each round's file differs from the others' in its first bytes, so the server never merges it with an earlier round's copy.",
        `Client (bench process) CPU per GiB: tus-js-client to server ${cpuPerGiB(server, 'clientCpuMs').toFixed(0)} ms, ` +
          `plain PUT ${cpuPerGiB(plainT, 'clientCpuMs').toFixed(0)} ms, tus-js-client to @tus ${cpuPerGiB(tusT, 'clientCpuMs').toFixed(0)} ms ` +
          "(client and receiver share the machine's cores).",
      ],
    };
  } finally {
    await Promise.all([...children.map((c) => stopChild(c)), bench.close()]);
    await removeTempDir(work);
  }
}

/**
 * Makes each round's file its own bytes (the same for every target in the round). The same 1 GiB
 * sent again would have the server merge it with the copy it already holds, after the answer:
 * reading that copy through (1 GiB, about a CPU second) while the next upload is measured, a cost
 * of uploading a file twice, not of an upload.
 */
async function markRound(file: string, round: number): Promise<void> {
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.write(Buffer.from(`hearth bench round ${round}\n`), 0, undefined, 0);
  } finally {
    await handle.close();
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

async function emptyDir(dir: string): Promise<void> {
  for (const name of await fsp.readdir(dir)) await fsp.rm(path.join(dir, name), { recursive: true, force: true });
}
