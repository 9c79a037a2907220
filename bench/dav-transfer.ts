import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { davOption, driveAuth } from './lib/dav.ts';
import { removeTempDir, spawnNodeMatch, stopChild, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { download, MiB, mibPerSecond, putFile, syncDisks, writeNoiseFile } from './lib/transfer.ts';

const HOST = path.join(path.dirname(fileURLToPath(import.meta.url)), 'lib/upload-host.ts');
/** Rounds alternate the order of the sides, so a change in machine load hits both alike. */
const ROUNDS = 3;

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/**
 * A 1 GiB file (`--dav-mib=N`) through the drive door, the server in its own process as
 * `npm start` runs it (LOG_LEVEL=warn):
 * - PUT /dav/<name> (Content-Length, one request, as rclone and Explorer send it) against the
 *   upload bench's plain node http server piping the same PUT to a file and fsyncing it;
 * - GET /dav/<name> against the app's own GET /nodes/{id}/download of the same file, the same
 *   bare-socket client (lib/transfer.ts `download`) for both.
 */
export async function benchDavTransfer(): Promise<BenchResult> {
  const bytes = davOption('mib', 1024) * MiB;
  const work = await tempDir('hearth-bench-dav-transfer-');
  const source = path.join(work, 'source.bin');
  const plainDir = path.join(work, 'plain');
  await fsp.mkdir(plainDir);
  const bench = await startBenchServer({ LOG_LEVEL: 'warn' });
  const plain = await spawnNodeMatch(['--import', 'tsx', HOST, 'plain', plainDir], /ready (\d+)/);
  try {
    const owner = await setupOwner(bench.client);
    const auth = await driveAuth(bench.client, owner.access);
    const base = bench.server.api.replace(/\/api\/v1$/, '');
    log(`  writing ${bytes / MiB} MiB of noise to a temp file...`);
    await writeNoiseFile(source, bytes);

    let seq = 0;
    const putSides = {
      dav: async () => {
        const res = await putFile(`${base}/dav/put-${seq++}.bin`, source, bytes, { Authorization: auth });
        if (res.status !== 201) throw new Error(`PUT /dav/ answered ${res.status}: ${res.body}`);
        return res.ms;
      },
      plain: async () => {
        const res = await putFile(`http://127.0.0.1:${plain.match[1]}/put-${seq++}.bin`, source, bytes);
        if (res.status !== 200) throw new Error(`plain PUT answered ${res.status}: ${res.body}`);
        await fsp.rm(plainDir, { recursive: true });
        await fsp.mkdir(plainDir);
        return res.ms;
      },
    };
    const put = { dav: [] as number[], plain: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['dav', 'plain'] as const) : (['plain', 'dav'] as const)) {
        // Writeback of the previous upload must not land in this one's time.
        await syncDisks();
        put[side].push(await putSides[side]());
        log(`  PUT round ${round + 1}/${ROUNDS} ${side.padEnd(5)} ${mibPerSecond(bytes, put[side].at(-1)!).toFixed(0)} MiB/s`);
      }
    }

    const listed = await bench.client.get('/nodes', { token: owner.access });
    const nodeId = (listed.body.items as { id: string; name: string }[]).find((n) => n.name === 'put-0.bin')!.id;
    const getSides = {
      dav: { url: `${base}/dav/put-0.bin`, headers: { authorization: auth } },
      app: { url: `${bench.server.api}/nodes/${nodeId}/download`, headers: { authorization: `Bearer ${owner.access}` } },
    };
    const get = { dav: [] as number[], app: [] as number[] };
    const fetchOnce = async (side: keyof typeof getSides) => {
      const result = await download(getSides[side].url, getSides[side].headers);
      if (result.status !== 200 || result.bytes !== bytes)
        throw new Error(`${side} GET answered ${result.status} with ${result.bytes} bytes`);
      return result.ms;
    };
    for (const side of ['dav', 'app'] as const) await fetchOnce(side); // warms the page cache
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? (['dav', 'app'] as const) : (['app', 'dav'] as const)) {
        get[side].push(await fetchOnce(side));
        log(`  GET round ${round + 1}/${ROUNDS} ${side.padEnd(5)} ${mibPerSecond(bytes, get[side].at(-1)!).toFixed(0)} MiB/s`);
      }
    }

    const rate = (ms: readonly number[]) => mibPerSecond(bytes * ms.length, sum(ms));
    const size = bytes >= 1024 * MiB ? `${bytes / (1024 * MiB)} GiB` : `${bytes / MiB} MiB`;
    return {
      name: 'dav transfer',
      rows: [
        {
          figure: `dav PUT ${size}`,
          value: rate(put.dav),
          reference: rate(put.plain),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: 'plain node http server in its own process piping one PUT of the same bytes to a file, then fsync (goal: >= 0.8x)',
        },
        {
          figure: `dav GET ${size}`,
          value: rate(get.dav),
          reference: rate(get.app),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs: "the app's GET /nodes/{id}/download of the same file on the same server, same client",
        },
      ],
      notes: [`PUT and GET: ${ROUNDS} rounds each, order alternating; GET after one unrecorded read of each (page cache warm).`],
    };
  } finally {
    await stopChild(plain.child);
    await bench.close();
    await removeTempDir(work);
  }
}
