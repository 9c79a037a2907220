import fsp from 'node:fs/promises';
import path from 'node:path';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { ensureNginx, startNginx, type Nginx } from './lib/nginx.ts';
import { cpuMs, ownCpuMs, removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { download, GiB, MiB, mibPerSecond, tusUpload, writeNoiseFile } from './lib/transfer.ts';

const FILE_BYTES = GiB;
const RANGE_START = 512 * MiB;
const RANGE_BYTES = 256 * MiB;
/** Each round downloads the whole file and the middle range once from each side, order rotating. */
const ROUNDS = 3;

interface Side {
  name: 'server' | 'nginx';
  pid: number;
  url: string;
  headers: Record<string, string>;
  full: number[];
  range: number[];
  serverCpuMs: number;
  clientCpuMs: number;
  bytes: number;
}

/**
 * A 1 GiB file (uploaded through the server's tus endpoint) downloaded over
 * GET /nodes/{id}/download, whole and as a 256 MiB Range from offset 512 MiB. Reference in
 * the same run: Debian's nginx with sendfile serving that very content file (the blob in the
 * server's data dir, so both read the same page cache) on 127.0.0.1. One node client (a bare
 * socket, see `download`) counts and drops the bodies for both.
 */
export async function benchDownload(): Promise<BenchResult> {
  const nginxBinary = await ensureNginx();
  const work = await tempDir('hearth-bench-download-');
  const bench = await startBenchServer({ LOG_LEVEL: 'warn' });
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
    nginx = await startNginx(nginxBinary, path.dirname(blob));

    const sides: Side[] = [
      {
        name: 'server',
        pid: bench.pid,
        url: `${bench.server.api}/nodes/${nodeId}/download`,
        headers: { authorization: `Bearer ${owner.access}` },
        full: [],
        range: [],
        serverCpuMs: 0,
        clientCpuMs: 0,
        bytes: 0,
      },
      {
        name: 'nginx',
        pid: nginx.pid,
        url: `http://127.0.0.1:${nginx.port}/${path.basename(blob)}`,
        headers: {},
        full: [],
        range: [],
        serverCpuMs: 0,
        clientCpuMs: 0,
        bytes: 0,
      },
    ];
    const get = async (side: Side, ranged: boolean) => {
      const headers = ranged ? { ...side.headers, range: `bytes=${RANGE_START}-${RANGE_START + RANGE_BYTES - 1}` } : side.headers;
      const result = await download(side.url, headers);
      const expected = ranged ? [206, RANGE_BYTES] : [200, FILE_BYTES];
      if (result.status !== expected[0] || result.bytes !== expected[1]) {
        throw new Error(`${side.name} answered ${result.status} with ${result.bytes} bytes, expected ${expected[0]} with ${expected[1]}`);
      }
      return result.ms;
    };

    // Unrecorded: warms the page cache, the JIT and the connections.
    for (const side of sides) await get(side, false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        const cpu0 = cpuMs(side.pid);
        const own0 = ownCpuMs();
        side.full.push(await get(side, false));
        side.range.push(await get(side, true));
        side.serverCpuMs += cpuMs(side.pid) - cpu0;
        side.clientCpuMs += ownCpuMs() - own0;
        side.bytes += FILE_BYTES + RANGE_BYTES;
        log(
          `  round ${round + 1}/${ROUNDS} ${side.name.padEnd(6)} full ${mibPerSecond(FILE_BYTES, side.full.at(-1)!).toFixed(0)} MiB/s, ` +
            `range ${mibPerSecond(RANGE_BYTES, side.range.at(-1)!).toFixed(0)} MiB/s`,
        );
      }
    }

    const [server, ref] = sides as [Side, Side];
    const rate = (bytes: number, ms: readonly number[]) => mibPerSecond(bytes * ms.length, sum(ms));
    const perRound = (bytes: number, ms: readonly number[]) => ms.map((m) => mibPerSecond(bytes, m).toFixed(0)).join(', ');
    const perGiB = (side: Side, cpu: number) => cpu / (side.bytes / GiB);
    return {
      name: 'download',
      rows: [
        {
          figure: 'download 1 GiB, whole file',
          value: rate(FILE_BYTES, server.full),
          reference: rate(FILE_BYTES, ref.full),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: 'Debian nginx, sendfile on, serving the same content file on 127.0.0.1, same client (goal: server >= 0.9x)',
        },
        {
          figure: 'download 256 MiB Range from 512 MiB',
          value: rate(RANGE_BYTES, server.range),
          reference: rate(RANGE_BYTES, ref.range),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: 'the same Range request to the same nginx',
        },
        {
          figure: 'download sender CPU per GiB',
          value: perGiB(server, server.serverCpuMs),
          reference: perGiB(ref, ref.serverCpuMs),
          unit: 'ms',
          better: 'lower',
          referenceIs: 'utime+stime of the nginx process per GiB sent, /proc/PID/stat',
        },
      ],
      notes: [
        `${ROUNDS} rounds, order alternating, page cache warm; MiB/s per round, whole: server ${perRound(FILE_BYTES, server.full)}; ` +
          `nginx ${perRound(FILE_BYTES, ref.full)}; range: server ${perRound(RANGE_BYTES, server.range)}; nginx ${perRound(RANGE_BYTES, ref.range)}.`,
        `Client (bench process) CPU per GiB received: from the server ${perGiB(server, server.clientCpuMs).toFixed(0)} ms, ` +
          `from nginx ${perGiB(ref, ref.clientCpuMs).toFixed(0)} ms (client and sender share the machine's cores).`,
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
