import { setupOwner } from '../server/test/helpers/accounts.ts';
import { uploadFile } from '../server/test/helpers/upload.ts';
import { cpuMs } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { download, GiB, MiB, mibPerSecond } from './lib/transfer.ts';

/** Eight videos of 256 MiB: a 2 GiB selection. The same bytes each, so the server stores them once. */
const PART = 256 * MiB;
const PARTS = 8;
const ROUNDS = 3;

/**
 * A zip of a 2 GiB selection (POST /downloads, then its ticket's URL), against a plain download
 * of the same bytes: the same eight files one after another over GET /nodes/{id}/download, from
 * the same server in the same run. Both are read by the same light client (a bare socket that
 * counts the body), the page cache warm. The goal: the zip at >= 0.8x.
 */
export async function benchZip(): Promise<BenchResult> {
  const bench = await startBenchServer({ LOG_LEVEL: 'warn' });
  try {
    const owner = await setupOwner(bench.client);
    log(`  uploading ${PARTS} files of ${PART / MiB} MiB...`);
    const bytes = Buffer.alloc(PART, 0x5a);
    const ids: string[] = [];
    for (let i = 0; i < PARTS; i++)
      ids.push(await uploadFile(bench.server.api, owner.access, bytes, { filename: `VID_${i}.mp4`, chunkSize: 64 * MiB }));
    const auth = { authorization: `Bearer ${owner.access}` };

    const plain = async () => {
      const started = performance.now();
      for (const id of ids) {
        const got = await download(`${bench.server.api}/nodes/${id}/download`, auth);
        if (got.status !== 200 || got.bytes !== PART) throw new Error(`plain download answered ${got.status} with ${got.bytes} bytes`);
      }
      return performance.now() - started;
    };
    const mints: number[] = [];
    const zipped = async () => {
      const asked = performance.now();
      const ticket = await bench.client.post('/downloads', { node_ids: ids }, { token: owner.access });
      if (ticket.status !== 201) throw new Error(`POST /downloads answered ${ticket.status}: ${JSON.stringify(ticket.body)}`);
      mints.push(performance.now() - asked);
      const started = performance.now();
      const got = await download(`${bench.server.url}${ticket.body.url}`, {});
      if (got.status !== 200 || got.bytes < PART * PARTS) throw new Error(`the zip answered ${got.status} with ${got.bytes} bytes`);
      return performance.now() - started;
    };

    // Unrecorded: warms the page cache, the JIT and the connections.
    await plain();
    await zipped();
    const times = { zip: [] as number[], plain: [] as number[] };
    const cpu = { zip: 0, plain: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? (['zip', 'plain'] as const) : (['plain', 'zip'] as const);
      for (const side of order) {
        const cpu0 = cpuMs(bench.pid);
        times[side].push(side === 'zip' ? await zipped() : await plain());
        cpu[side] += cpuMs(bench.pid) - cpu0;
        log(`  round ${round + 1}/${ROUNDS} ${side.padEnd(5)} ${mibPerSecond(PART * PARTS, times[side].at(-1)!).toFixed(0)} MiB/s`);
      }
    }
    const rate = (ms: readonly number[]) =>
      mibPerSecond(
        PART * PARTS * ms.length,
        ms.reduce((a, b) => a + b, 0),
      );
    const perRound = (ms: readonly number[]) => ms.map((m) => mibPerSecond(PART * PARTS, m).toFixed(0)).join(', ');
    const total = (PART * PARTS * ROUNDS) / GiB;
    return {
      name: 'zip',
      rows: [
        {
          figure: 'zip of 2 GiB (8 files), streamed',
          value: rate(times.zip),
          reference: rate(times.plain),
          unit: 'MiB/s',
          better: 'higher',
          referenceIs:
            'the same 8 files downloaded one after another (GET /nodes/{id}/download), same server and client (goal: zip >= 0.8x)',
        },
        {
          figure: 'zip sender CPU per GiB',
          value: cpu.zip / total,
          reference: cpu.plain / total,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'utime+stime of the server per GiB of the plain downloads, /proc/PID/stat',
        },
      ],
      notes: [
        `${ROUNDS} rounds, order alternating, page cache warm; MiB/s per round: zip ${perRound(times.zip)}; plain ${perRound(times.plain)}.`,
        `POST /downloads (checking the 8 and making the ticket) took ${mints.map((m) => m.toFixed(1)).join(', ')} ms; not in the zip's time.`,
      ],
    };
  } finally {
    await bench.close();
  }
}
