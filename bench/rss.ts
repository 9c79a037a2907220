import { setupOwner } from '../server/test/helpers/accounts.ts';
import { rssKb, spawnNode, stopChild } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { sleep } from './lib/stats.ts';

const SETTLE_MS = 2_000;
const BARE_HTTP = "require('http').createServer().listen(0, '127.0.0.1', () => console.log('ready'))";

/**
 * Resident memory of the idle server: spawned as `npm start` runs it, owner set up, then left
 * alone for two seconds. Reference: a bare node HTTP server process, idle for as long. A second
 * bare server started with `--import tsx`, as the server is, shows what the loader alone costs.
 */
export async function benchRss(): Promise<BenchResult> {
  const bench = await startBenchServer();
  const bare = await spawnNode(['-e', BARE_HTTP], /ready/);
  const bareTsx = await spawnNode(['--import', 'tsx', '--input-type=commonjs', '-e', BARE_HTTP], /ready/);
  try {
    await setupOwner(bench.client);
    log(`  rss: idle for ${SETTLE_MS / 1000} s...`);
    await sleep(SETTLE_MS);
    const server = rssKb(bench.pid) / 1024;
    const reference = rssKb(bare.pid!) / 1024;
    const referenceTsx = rssKb(bareTsx.pid!) / 1024;
    return {
      name: 'rss',
      rows: [
        {
          figure: 'server RSS idle',
          value: server,
          reference,
          unit: 'MiB',
          better: 'lower',
          referenceIs: `node -e "require('http').createServer().listen(0)", idle`,
        },
        {
          figure: 'server RSS idle vs bare under tsx',
          value: server,
          reference: referenceTsx,
          unit: 'MiB',
          better: 'lower',
          referenceIs: 'the same bare http server started with --import tsx, as npm start starts the server',
        },
      ],
      notes: [`VmRSS from /proc/PID/status ${SETTLE_MS / 1000} s after setup (one production-cost scrypt hash done).`],
    };
  } finally {
    await Promise.all([bench.close(), stopChild(bare), stopChild(bareTsx)]);
  }
}
