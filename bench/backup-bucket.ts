/**
 * Backups to a far bucket (issue 35): the first backup of a library of photos to an S3 bucket
 * whose every request waits BENCH_BUCKET_DELAY_MS (50 by default: a bucket across the internet),
 * with 4 files at once (what a folder takes, and what every destination took before) against
 * the default for a bucket (BACKUP_BUCKET_FILES_AT_ONCE, 8) and 16; then the nightly run with
 * nothing new, which asks the bucket what it holds in one listing (a thousand names a request)
 * instead of a request per file.
 *
 * One data folder, one library, the same bucket (s3rver, in its own process, with the delay in
 * front of every request); the server is started again on the same data folder with each setting,
 * and each setting backs up to its own prefix. BENCH_BUCKET_FILES sets the photos (200 by
 * default), 0.3 to 1.5 MB each.
 */
import crypto from 'node:crypto';
import { login, OWNER, setupOwner } from '../server/test/helpers/accounts.ts';
import { startS3, type TestS3 } from '../server/test/helpers/s3.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../server/test/helpers/spawn.ts';
import { uploadFile } from '../server/test/helpers/upload.ts';
import { cpuMs, removeTempDir, stopChild, tempDir, track } from './lib/proc.ts';
import { fmt, log, type BenchResult, type Row } from './lib/report.ts';
import { productionEnv } from './lib/server.ts';
import { sleep } from './lib/stats.ts';
import { MiB, mibPerSecond } from './lib/transfer.ts';

const PHOTOS = Number(process.env.BENCH_BUCKET_FILES ?? '200');
const DELAY_MS = Number(process.env.BENCH_BUCKET_DELAY_MS ?? '50');
const SETTINGS = [4, 8, 16];

function photoBytes(i: number): number {
  const spread = (Math.imul(i + 1, 2654435761) >>> 0) / 2 ** 32;
  return Math.round(300_000 + spread * 1_200_000);
}

interface Run {
  ms: number;
  cpuMs: number;
  files: number;
  bytesCopied: number;
  requests: Record<string, number>;
}

/** "Back up now" to its end, with the bucket's requests it took. */
async function backUp(server: SpawnedServer, client: ApiClient, token: string, s3: TestS3, destinationId: string): Promise<Run> {
  const before = await s3.requests();
  const t0 = performance.now();
  const cpu0 = cpuMs(server.process.pid!);
  const started = await client.post(`/admin/backup/destinations/${destinationId}/run`, undefined, { token });
  if (started.status !== 202) throw new Error(`Back up now answered ${started.status}: ${JSON.stringify(started.body)}`);
  for (;;) {
    const run = await client.get(`/admin/backup/runs/${started.body.id}`, { token });
    if (run.body.state === 'failed') throw new Error(`the backup failed: ${run.body.error}`);
    if (run.body.state === 'succeeded') {
      const ms = performance.now() - t0;
      const used = cpuMs(server.process.pid!) - cpu0;
      const after = await s3.requests();
      const requests: Record<string, number> = {};
      for (const [what, n] of Object.entries(after)) if (n > (before[what] ?? 0)) requests[what] = n - (before[what] ?? 0);
      return { ms, cpuMs: used, files: run.body.files, bytesCopied: run.body.bytes_copied, requests };
    }
    // Seldom: a backup gives way to every request being answered (FamilyFirst), the bench's own polls too.
    await sleep(250);
  }
}

export async function benchBackupBucket(): Promise<BenchResult> {
  const s3 = await startS3({ delayMs: DELAY_MS });
  const dataDir = await tempDir('hearth-bench-bucket-');
  let server: SpawnedServer | null = null;
  const start = async (filesAtOnce: number) => {
    server = await spawnServer(dataDir, productionEnv({ LOG_LEVEL: 'warn', BACKUP_BUCKET_FILES_AT_ONCE: String(filesAtOnce) }));
    track(server.process);
    return { server, client: new ApiClient(server.api) };
  };
  try {
    let { server: first, client } = await start(SETTINGS[0]!);
    let owner = await setupOwner(client);
    let libraryBytes = 0;
    log(`  uploading ${PHOTOS} photos (0.3 to 1.5 MB)...`);
    for (let i = 0; i < PHOTOS; i++) {
      const bytes = crypto.randomBytes(photoBytes(i));
      await uploadFile(first.api, owner.access, bytes, { filename: `IMG_${i}.jpg` });
      libraryBytes += bytes.length;
    }
    const runs = new Map<number, { first: Run; nightly: Run }>();
    for (const filesAtOnce of SETTINGS) {
      // Each setting on a server started afresh (the one that took the uploads too): none runs warmer than another.
      await stopChild(server!.process);
      ({ server: first, client } = await start(filesAtOnce));
      owner = await login(client, OWNER.username, OWNER.password);
      const added = await client.post('/admin/backup/destinations', s3.destination({ prefix: `at-once-${filesAtOnce}` }), {
        token: owner.access,
      });
      if (added.status !== 201) throw new Error(`adding the bucket answered ${added.status}: ${JSON.stringify(added.body)}`);
      const firstRun = await backUp(first, client, owner.access, s3, added.body.id);
      const nightly = await backUp(first, client, owner.access, s3, added.body.id);
      runs.set(filesAtOnce, { first: firstRun, nightly });
      log(
        `  ${filesAtOnce} at once: first ${fmt(firstRun.ms, 'ms')} (${mibPerSecond(libraryBytes, firstRun.ms).toFixed(1)} MiB/s, ${(firstRun.cpuMs / 1000).toFixed(1)} CPU s), nightly ${fmt(nightly.ms, 'ms')} ${JSON.stringify(nightly.requests)}`,
      );
    }
    const four = runs.get(4)!;
    const rows: Row[] = SETTINGS.filter((n) => n !== 4).map((n) => ({
      figure: `first backup of ${PHOTOS} photos to a bucket ${DELAY_MS} ms away, ${n} files at once vs 4`,
      value: mibPerSecond(libraryBytes, runs.get(n)!.first.ms),
      reference: mibPerSecond(libraryBytes, four.first.ms),
      unit: 'MiB/s',
      better: 'higher' as const,
      referenceIs: 'the same first backup with 4 files at once (BACKUP_BUCKET_FILES_AT_ONCE=4, what every destination took before)',
    }));
    const eight = runs.get(8)!;
    rows.push({
      figure: `nightly backup with nothing new, ${PHOTOS} photos in the bucket, vs the first`,
      value: eight.nightly.ms,
      reference: eight.first.ms,
      unit: 'ms',
      better: 'lower',
      referenceIs: 'the first backup of the same library with 8 files at once',
    });
    return {
      name: 'backup to a bucket',
      rows,
      notes: [
        `library: ${PHOTOS} photos, ${(libraryBytes / MiB).toFixed(0)} MiB of random bytes; the bucket: s3rver on this machine, every request held ${DELAY_MS} ms (BENCH_BUCKET_DELAY_MS)`,
        `nightly run's requests to the bucket (8 at once): ${JSON.stringify(eight.nightly.requests)}; no HEAD or GET per content file`,
        ...SETTINGS.map(
          (n) =>
            `${n} at once: first ${(runs.get(n)!.first.ms / 1000).toFixed(1)} s, ${(runs.get(n)!.first.cpuMs / 1000).toFixed(1)} CPU s in the server, ${runs.get(n)!.first.files} files; nightly ${(runs.get(n)!.nightly.ms / 1000).toFixed(2)} s`,
        ),
      ],
    };
  } finally {
    if (server) await stopChild((server as SpawnedServer).process);
    await s3.stop();
    await removeTempDir(dataDir);
  }
}
