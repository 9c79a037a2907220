import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RCLONE, rcloneEnv, run, transfersOf } from '../server/test/api/dav/dav-clients-support.ts';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { davOption, driveAuth, passwordOf } from './lib/dav.ts';
import { removeTempDir, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { startBenchServer } from './lib/server.ts';
import { freePort, waitForPort } from './lib/transfer.ts';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../server/test/fixtures/media/paris-canon.jpg');

/**
 * `count` photos made cheaply: the same small test JPEG, then `padBytes` of noise after its end
 * marker (viewers stop there), so each file is different and about a phone thumbnail's size.
 */
async function writePhotos(dir: string, count: number, padBytes: number): Promise<number> {
  const jpeg = await fsp.readFile(FIXTURE);
  let total = 0;
  for (let i = 0; i < count; i++) {
    const folder = path.join(dir, `2024-${String((i % 12) + 1).padStart(2, '0')}`);
    await fsp.mkdir(folder, { recursive: true });
    const bytes = Buffer.concat([jpeg, crypto.randomBytes(padBytes)]);
    await fsp.writeFile(path.join(folder, `IMG_${String(i + 1).padStart(5, '0')}.jpg`), bytes);
    total += bytes.length;
  }
  return total;
}

interface Timed {
  sync: number;
  check: number;
  again: number;
}

/**
 * rclone (Debian's, vendor=other) syncing 2,000 small photos (`--dav-photos=N`) in 12 month
 * folders into Hearth over /dav/, then `rclone check` (must find no difference) and a second
 * sync (must send nothing). The reference, in the same run with the same rclone and flags:
 * `rclone serve webdav` over a temp folder, i.e. rclone's own WebDAV server on plain files.
 */
export async function benchDavRclone(): Promise<BenchResult> {
  const count = davOption('photos', 2_000);
  const work = await tempDir('hearth-bench-dav-rclone-');
  const photos = path.join(work, 'photos');
  const refDir = path.join(work, 'reference');
  await fsp.mkdir(refDir);
  const bench = await startBenchServer({ LOG_LEVEL: 'warn' });
  const refPort = await freePort();
  const reference = track(
    spawn(RCLONE, ['serve', 'webdav', refDir, '--addr', `127.0.0.1:${refPort}`], {
      env: { PATH: process.env.PATH, RCLONE_CONFIG: path.join(work, 'none.conf') },
      stdio: 'ignore',
    }),
  );
  try {
    const bytes = await writePhotos(photos, count, 64 * 1024);
    log(`  ${count.toLocaleString('en')} photos, ${(bytes / 1e6).toFixed(0)} MB`);
    const owner = await setupOwner(bench.client);
    const password = passwordOf(await driveAuth(bench.client, owner.access));
    const base = bench.server.api.replace(/\/api\/v1$/, '');
    const env = {
      ...(await rcloneEnv({ url: `${base}/dav/`, login: { username: 'owner', password } }, work)),
      RCLONE_CONFIG_REF_TYPE: 'webdav',
      RCLONE_CONFIG_REF_URL: `http://127.0.0.1:${refPort}/`,
      RCLONE_CONFIG_REF_VENDOR: 'other',
    };
    await waitForPort(refPort);

    const timed = async (args: string[]) => {
      const t0 = performance.now();
      const result = await run(RCLONE, [...args, '--use-json-log', '-v', '--stats', '1h'], env, 30 * 60_000);
      if (result.code !== 0) throw new Error(`rclone ${args.join(' ')} failed:\n${result.stderr.slice(-4000)}`);
      return { s: (performance.now() - t0) / 1000, log: result.stderr };
    };
    const side = async (remote: string): Promise<Timed> => {
      const sync = await timed(['sync', photos, `${remote}:Photos`]);
      if (transfersOf(sync.log) !== count) throw new Error(`${remote}: the first sync sent ${transfersOf(sync.log)} of ${count}`);
      const check = await timed(['check', photos, `${remote}:Photos`]);
      if (!/"0 differences found"/.test(check.log)) throw new Error(`${remote}: check found differences:\n${check.log.slice(-4000)}`);
      const again = await timed(['sync', photos, `${remote}:Photos`]);
      if (transfersOf(again.log) !== 0) throw new Error(`${remote}: the second sync sent ${transfersOf(again.log)} files`);
      log(
        `  ${remote.padEnd(6)} sync ${sync.s.toFixed(1)} s, check ${check.s.toFixed(1)} s, second sync ${again.s.toFixed(1)} s (sent nothing)`,
      );
      return { sync: sync.s, check: check.s, again: again.s };
    };
    const hearth = await side('hearth');
    const ref = await side('ref');

    const referenceIs = 'rclone serve webdav (rclone 1.60) over a temp folder, same rclone client and flags';
    const row = (figure: string, key: keyof Timed): Row => ({
      figure: `rclone ${figure}, ${count.toLocaleString('en')} photos`,
      value: hearth[key],
      reference: ref[key],
      unit: 's',
      better: 'lower',
      referenceIs,
    });
    return {
      name: 'dav rclone',
      rows: [row('sync', 'sync'), row('check', 'check'), row('second sync', 'again')],
      notes: [
        `${(bytes / 1e6).toFixed(0)} MB in 12 folders; check found 0 differences on both (sizes: vendor=other has no hash); the second sync sent nothing on both.`,
        'Hearth also makes a thumbnail of each photo as it arrives (media workers), on the same cores.',
      ],
    };
  } finally {
    await stopChild(reference);
    await bench.close();
    await removeTempDir(work);
  }
}
