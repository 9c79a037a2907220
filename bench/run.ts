/**
 * `npm run bench`: every figure next to a reference measured in this same run on this same
 * machine, printed as a ratio. Nothing here asserts a time; the numbers are for reading.
 *
 * `npm run bench -- upload download` runs only the benchmarks named (see BENCHES); no
 * argument runs them all. Arguments that start with `--` (`--photos=200`) are options, read by
 * the benchmark they belong to.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error a plain .mjs script, shared with scripts/run-node-tests.mjs
import { buildServerBundle } from '../scripts/server-bundle.mjs';
import { benchAlbums } from './albums.ts';
import { benchAppliance } from './appliance.ts';
import { benchBackup } from './backup.ts';
import { benchBackupBucket } from './backup-bucket.ts';
import { benchDavPropfind } from './dav-propfind.ts';
import { benchDavRclone } from './dav-rclone.ts';
import { benchDavTransfer } from './dav-transfer.ts';
import { benchAgeCipher } from './age-cipher.ts';
import { benchDownload } from './download.ts';
import { benchConsole } from './web-console.ts';
import { benchDurableWrites } from './durable-writes.ts';
import { benchFaces } from './faces.ts';
import { benchFamilyWhileFaces } from './family-while-faces.ts';
import { benchThings } from './things.ts';
import { benchFuzz } from './fuzz.ts';
import { installCleanup, killAll } from './lib/proc.ts';
import { log, printTable, type BenchResult } from './lib/report.ts';
import { benchListing } from './listing.ts';
import { benchMedia } from './media.ts';
import { benchPhoneBackup } from './phone-backup.ts';
import { benchPlaybackCopy } from './playback-copy.ts';
import { benchRss } from './rss.ts';
import { benchSharing } from './sharing.ts';
import { benchSignin } from './signin.ts';
import { benchSqliteEngines } from './sqlite-engines.ts';
import { benchUpload } from './upload.ts';
import { benchVideoPoster } from './video-poster.ts';
import { benchWeb } from './web.ts';
import { benchWebPhotos } from './web-photos.ts';
import { benchWsFanout } from './ws-fanout.ts';
import { benchZip } from './zip.ts';

installCleanup();

/** [name on the command line, title, benchmark] in the order they run. */
const BENCHES: [string, string, () => Promise<BenchResult>][] = [
  ['signin', 'sign-in', benchSignin],
  ['durable-writes', 'durable writes', benchDurableWrites],
  ['ws-fanout', 'ws fan-out', benchWsFanout],
  ['rss', 'rss', benchRss],
  ['upload', 'upload', benchUpload],
  ['download', 'download', benchDownload],
  ['listing', 'listing', benchListing],
  ['dav', 'dav PROPFIND', benchDavPropfind],
  ['dav', 'dav PUT and GET', benchDavTransfer],
  ['dav', 'dav rclone sync', benchDavRclone],
  ['sharing', 'sharing', benchSharing],
  ['albums', 'albums', benchAlbums],
  ['media', 'media', benchMedia],
  ['media', 'video poster', benchVideoPoster],
  ['playback-copy', 'playback copy', benchPlaybackCopy],
  ['faces', 'faces', benchFaces],
  ['faces', 'family requests while faces run', benchFamilyWhileFaces],
  ['things', 'things', benchThings],
  ['age-cipher', 'backup cipher, desktop app', benchAgeCipher],
  ['backup', 'backup', benchBackup],
  ['backup-bucket', 'backup to a bucket', benchBackupBucket],
  ['phone-backup', 'phone backup', benchPhoneBackup],
  ['console', 'console in Lighthouse', benchConsole],
  ['sqlite', 'sqlite engines', benchSqliteEngines],
  ['appliance', 'appliance', benchAppliance],
  ['fuzz', 'fuzz', benchFuzz],
  ['web', 'web app', benchWeb],
  ['web-photos', 'Photos page in Lighthouse', benchWebPhotos],
  // The "npm run bench -- web" names it with the web app's figures.
  ['web', 'zip download', benchZip],
];

const wanted = process.argv
  .slice(2)
  .filter((a) => !a.startsWith('--'))
  .map((a) => a.toLowerCase());
const unknown = wanted.filter((w) => !BENCHES.some(([id]) => id === w));
if (unknown.length > 0) {
  log(`unknown benchmark ${unknown.join(', ')}; choose from: ${BENCHES.map(([id]) => id).join(' ')} (none: all)`);
  process.exit(2);
}
const benches = BENCHES.filter(([id]) => wanted.length === 0 || wanted.includes(id)).map(([, title, bench]) => [title, bench] as const);

const cpu = os.cpus()[0]?.model ?? 'unknown cpu';
log(`hearth bench: node ${process.version}, ${os.availableParallelism()} x ${cpu}, ${Math.round(os.totalmem() / 2 ** 30)} GiB`);
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
log(`load average at start: ${loadavg()} (other work on the machine skews figures; ratios less so)`);
// The servers run from a bundle, as `npm start` runs dist/server.js (and as the tests run them):
// under tsx every start, and every worker thread a server starts, first compiles the sources.
// Inside node_modules/.cache: the bundle finds its packages (better-sqlite3, sharp) from there.
fs.mkdirSync(path.join('node_modules', '.cache'), { recursive: true });
const bundle = fs.mkdtempSync(path.join(process.cwd(), 'node_modules', '.cache', 'hearth-bench-server-'));
await buildServerBundle(process.cwd(), bundle);
process.env.HEARTH_TEST_SERVER_BUNDLE = bundle;
process.on('exit', () => fs.rmSync(bundle, { recursive: true, force: true }));
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
// Ended here, whatever a failed benchmark left behind (a server it started, a probe's pipe, a
// timer): those would keep Node waiting for ever, and the 'exit' cleanup never comes.
killAll();
process.exit(failed ? 1 : 0);
