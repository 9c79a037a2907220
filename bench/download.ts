import fsp from 'node:fs/promises';
import path from 'node:path';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { ensureNginx, makeSelfSignedCertificate, startNginx, type Nginx } from './lib/nginx.ts';
import { perfAvailable, perfTopSelf } from './lib/perf-profile.ts';
import { cpuMs, machineCpuMs, ownCpuMs, removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { download, GiB, MiB, mibPerSecond, tusUpload, writeNoiseFile, type TlsClientOptions } from './lib/transfer.ts';

const FILE_BYTES = GiB;
const RANGE_START = 512 * MiB;
const RANGE_BYTES = 256 * MiB;
/** Each round downloads the whole file and the middle range once from each side, order rotating (`--download-rounds=N`). */
const ROUNDS = Number(process.argv.find((arg) => arg.startsWith('--download-rounds='))?.slice('--download-rounds='.length) ?? 3);
/**
 * The one TLS 1.3 suite the client offers to both sides, so both encrypt with the same cipher
 * (it decides most of a TLS download's CPU). OpenSSL's and Node's first choice;
 * `--tls-suite=TLS_CHACHA20_POLY1305_SHA256` measures what a phone without AES instructions gets.
 */
const DEFAULT_SUITE = 'TLS_AES_256_GCM_SHA384';

type Protocol = 'http' | 'https';

interface Side {
  name: 'server' | 'nginx';
  protocol: Protocol;
  pid: number;
  url: string;
  headers: Record<string, string>;
  full: number[];
  range: number[];
  serverCpuMs: number;
  clientCpuMs: number;
  /** The whole machine's busy time over the same downloads (sender, client, kernel threads). */
  machineCpuMs: number;
  bytes: number;
  /** The suite each HTTPS download agreed on (all the same, or the run fails). */
  suite: string | null;
}

/**
 * A 1 GiB file (uploaded through the server's tus endpoint) downloaded over
 * GET /nodes/{id}/download, whole and as a 256 MiB Range from offset 512 MiB, over plain HTTP
 * and over HTTPS (the server's own, on its one port). Reference in the same run: Debian's
 * nginx serving that very content file (the blob in the server's data dir, so both read the
 * same page cache) on 127.0.0.1, with sendfile over HTTP and its default TLS over HTTPS (a
 * certificate made by openssl). One node client (a bare socket, see `download`) counts and
 * drops the bodies for all, offering one TLS suite only so both sides encrypt alike.
 * `--download-profile` adds where each side's CPU goes (perf), one whole download each.
 */
export async function benchDownload(): Promise<BenchResult> {
  const suite = process.argv.find((arg) => arg.startsWith('--tls-suite='))?.slice('--tls-suite='.length) ?? DEFAULT_SUITE;
  const tlsOptions: TlsClientOptions = { ciphers: suite, minVersion: 'TLSv1.3' };
  const profile = process.argv.includes('--download-profile') && (await perfAvailable());
  const nginxBinary = await ensureNginx();
  const work = await tempDir('hearth-bench-download-');
  // --perf-basic-prof lets perf name JavaScript functions; only when profiling (it writes a map file as code compiles).
  const bench = await startBenchServer({ LOG_LEVEL: 'warn', ...(profile && { NODE_OPTIONS: '--perf-basic-prof' }) });
  let nginx: Nginx | null = null;
  try {
    const owner = await setupOwner(bench.client);
    log(`  uploading a ${FILE_BYTES / GiB} GiB file to the server...`);
    const source = path.join(work, 'source.bin');
    await writeNoiseFile(source, FILE_BYTES);
    const { nodeId } = await tusUpload(`${bench.server.api}/uploads`, source, FILE_BYTES, 32 * MiB, {
      Authorization: `Bearer ${owner.access}`,
    });
    if (!nodeId) throw new Error('the server did not answer a node id for the uploaded file');
    await fsp.rm(source);
    const blob = await onlyBlob(path.join(bench.dataDir, 'files', 'blobs'));
    nginx = await startNginx(nginxBinary, path.dirname(blob), await makeSelfSignedCertificate(work));

    const serverPath = `${bench.server.api.replace(/^http:\/\/[^/]+/, '')}/nodes/${nodeId}/download`;
    const serverPort = new URL(bench.server.url).port;
    const side = (name: Side['name'], protocol: Protocol, pid: number, url: string, headers: Record<string, string>): Side => ({
      name,
      protocol,
      pid,
      url,
      headers,
      full: [],
      range: [],
      serverCpuMs: 0,
      clientCpuMs: 0,
      machineCpuMs: 0,
      bytes: 0,
      suite: null,
    });
    const auth = { authorization: `Bearer ${owner.access}` };
    const file = path.basename(blob);
    const pairs: [Side, Side][] = [
      [
        side('server', 'http', bench.pid, `http://127.0.0.1:${serverPort}${serverPath}`, auth),
        side('nginx', 'http', nginx.pid, `http://127.0.0.1:${nginx.port}/${file}`, {}),
      ],
      [
        side('server', 'https', bench.pid, `https://127.0.0.1:${serverPort}${serverPath}`, auth),
        side('nginx', 'https', nginx.pid, `https://127.0.0.1:${nginx.tlsPort}/${file}`, {}),
      ],
    ];
    const get = async (side: Side, ranged: boolean) => {
      const headers = ranged ? { ...side.headers, range: `bytes=${RANGE_START}-${RANGE_START + RANGE_BYTES - 1}` } : side.headers;
      const result = await download(side.url, headers, tlsOptions);
      const expected = ranged ? [206, RANGE_BYTES] : [200, FILE_BYTES];
      if (result.status !== expected[0] || result.bytes !== expected[1]) {
        throw new Error(`${side.name} answered ${result.status} with ${result.bytes} bytes, expected ${expected[0]} with ${expected[1]}`);
      }
      if (side.protocol === 'https') {
        const agreed = `${result.tls?.protocol} ${result.tls?.suite}`;
        if (side.suite !== null && side.suite !== agreed) throw new Error(`${side.name} agreed on ${agreed} after ${side.suite}`);
        side.suite = agreed;
      }
      return result.ms;
    };

    // Unrecorded: warms the page cache, the JIT and the connections.
    for (const pair of pairs) for (const s of pair) await get(s, false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const pair of pairs) {
        for (const s of round % 2 === 0 ? pair : [...pair].reverse()) {
          const cpu0 = cpuMs(s.pid);
          const own0 = ownCpuMs();
          const machine0 = machineCpuMs();
          s.full.push(await get(s, false));
          s.range.push(await get(s, true));
          s.serverCpuMs += cpuMs(s.pid) - cpu0;
          s.clientCpuMs += ownCpuMs() - own0;
          s.machineCpuMs += machineCpuMs() - machine0;
          s.bytes += FILE_BYTES + RANGE_BYTES;
          log(
            `  round ${round + 1}/${ROUNDS} ${s.protocol.padEnd(5)} ${s.name.padEnd(6)} full ${mibPerSecond(FILE_BYTES, s.full.at(-1)!).toFixed(0)} MiB/s, ` +
              `range ${mibPerSecond(RANGE_BYTES, s.range.at(-1)!).toFixed(0)} MiB/s, ` +
              `${((cpuMs(s.pid) - cpu0) / 1000 / ((FILE_BYTES + RANGE_BYTES) / GiB)).toFixed(2)} CPU s/GiB`,
          );
        }
      }
    }

    const profiles: string[] = [];
    if (profile) {
      for (const pair of pairs) {
        for (const s of pair) {
          const top = await perfTopSelf(s.pid, async () => void (await get(s, false)));
          profiles.push(`perf, ${s.name} over ${s.protocol}, one whole download, top self time:`, ...top.map((line) => `    ${line}`));
        }
      }
    }

    const rate = (bytes: number, ms: readonly number[]) => mibPerSecond(bytes * ms.length, sum(ms));
    const perRound = (bytes: number, ms: readonly number[]) => ms.map((m) => mibPerSecond(bytes, m).toFixed(0)).join(', ');
    const perGiB = (s: Side, cpu: number) => cpu / 1000 / (s.bytes / GiB);
    const [[server, ref], [secure, secureRef]] = pairs as [[Side, Side], [Side, Side]];
    const rows: Row[] = [
      {
        figure: 'download CPU per GiB, plain HTTP',
        value: perGiB(server, server.serverCpuMs),
        reference: perGiB(ref, ref.serverCpuMs),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs:
          'utime+stime (all threads, /proc/PID/stat) of Debian nginx, sendfile on, serving the same content file, per GiB sent, whole file and Range (goal: server <= 1.5x)',
      },
      {
        figure: 'download CPU per GiB, plain HTTP, machine',
        value: perGiB(server, server.machineCpuMs),
        reference: perGiB(ref, ref.machineCpuMs),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs:
          "the whole machine's busy time (/proc/stat) while nginx sends the same downloads to the same client: " +
          'on loopback the kernel charges the TCP work to the sender or to the receiver from one run to the next, which moves the line above; the sum holds',
      },
      {
        figure: 'download CPU per GiB, HTTPS',
        value: perGiB(secure, secure.serverCpuMs),
        reference: perGiB(secureRef, secureRef.serverCpuMs),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs: `the same nginx over HTTPS, default TLS settings; negotiated: server ${secure.suite}, nginx ${secureRef.suite} (goal: server <= 1.0x)`,
      },
      {
        figure: 'download CPU per GiB, HTTPS, machine',
        value: perGiB(secure, secure.machineCpuMs),
        reference: perGiB(secureRef, secureRef.machineCpuMs),
        unit: 'CPU s/GiB',
        better: 'lower',
        referenceIs: "the whole machine's busy time while the same nginx sends the same downloads over HTTPS",
      },
    ];
    for (const [s, r] of pairs) {
      const label = s.protocol === 'http' ? 'plain HTTP' : 'HTTPS';
      rows.push(
        {
          figure: `download 1 GiB, whole file, ${label}`,
          value: rate(FILE_BYTES, s.full),
          reference: rate(FILE_BYTES, r.full),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: `nginx over ${label}, same client (for information: throughput swings with the machine's load)`,
        },
        {
          figure: `download 256 MiB Range from 512 MiB, ${label}`,
          value: rate(RANGE_BYTES, s.range),
          reference: rate(RANGE_BYTES, r.range),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: `the same Range request to the same nginx over ${label}`,
        },
      );
    }
    return {
      name: 'download',
      rows,
      notes: [
        `${ROUNDS} rounds, order alternating, page cache warm; the client offers ${suite} only.`,
        ...pairs.map(
          ([s, r]) =>
            `${s.protocol}: MiB/s per round, whole: server ${perRound(FILE_BYTES, s.full)}; nginx ${perRound(FILE_BYTES, r.full)}; ` +
            `range: server ${perRound(RANGE_BYTES, s.range)}; nginx ${perRound(RANGE_BYTES, r.range)}. Client (bench process) CPU per GiB ` +
            `received: from the server ${perGiB(s, s.clientCpuMs).toFixed(2)} s, from nginx ${perGiB(r, r.clientCpuMs).toFixed(2)} s ` +
            `(client and sender share the machine's cores).`,
        ),
        ...profiles,
      ],
    };
  } finally {
    await Promise.all([nginx?.stop(), bench.close()]);
    await removeTempDir(work);
  }
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** The one content file under a fresh server's blobs/ (sharded by the id's last two characters). */
async function onlyBlob(blobs: string): Promise<string> {
  const files: string[] = [];
  for (const shard of await fsp.readdir(blobs)) {
    for (const name of await fsp.readdir(path.join(blobs, shard))) files.push(path.join(blobs, shard, name));
  }
  if (files.length !== 1) throw new Error(`expected one content file under ${blobs}, found ${files.length}`);
  return files[0]!;
}
