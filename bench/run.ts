/**
 * `npm run bench`: every figure next to a reference measured in this same run on this same
 * machine, printed as a ratio. Nothing here asserts a time; the numbers are for reading.
 */
import os from 'node:os';
import { benchDurableWrites } from './durable-writes.ts';
import { installCleanup } from './lib/proc.ts';
import { log, printTable, type BenchResult } from './lib/report.ts';
import { benchRss } from './rss.ts';
import { benchSignin } from './signin.ts';
import { benchWsFanout } from './ws-fanout.ts';

installCleanup();

const benches: [string, () => Promise<BenchResult>][] = [
  ['sign-in', benchSignin],
  ['durable writes', benchDurableWrites],
  ['ws fan-out', benchWsFanout],
  ['rss', benchRss],
];

const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
log(`hearth bench: node ${process.version}, ${os.availableParallelism()} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
const loadavg = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
log(`load average at start: ${loadavg()} (other work on the machine skews figures; ratios less so)`);
const started = performance.now();
const results: BenchResult[] = [];
let failed = false;
for (const [name, bench] of benches) {
  log(`${name}:`);
  const t0 = performance.now();
  try {
    results.push(await bench());
    log(`  done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } catch (error) {
    failed = true;
    log(`  FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}
printTable(results);
log('');
log(`total ${((performance.now() - started) / 1000).toFixed(0)} s; load average at end: ${loadavg()}`);
process.exitCode = failed ? 1 : 0;
