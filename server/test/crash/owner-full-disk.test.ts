import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { AppError } from '../../src/app-error.ts';
import { OWNER } from '../helpers/accounts.ts';
import { runOwnerCli } from '../helpers/owner-cli.ts';
import { ApiClient, makeTempDir, startTestServer } from '../helpers/server.ts';
import { skipBecause } from '../helpers/skip.ts';
import { fillDisk, mountTmpfs, tmpfsUnsupportedReason } from '../helpers/small-disk.ts';
import { spawnServer } from '../helpers/spawn.ts';

/*
 * A server that started on a full disk opens its database without the shared-memory file, and
 * then has it to itself until its next start. The owner's recovery at the PC says so and what
 * to do instead, rather than calling the database "not a Hearth database"; and the desktop
 * app's tray learns that the disk is full, not that the server is not running.
 */
test("on a server started on a full disk, `npm run owner -- reset` says the server has the database to itself, and the tray's code says the disk is full", async (ctx) => {
  const work = await makeTempDir('hearth-owner-full-');
  const why = tmpfsUnsupportedReason(work);
  if (why) {
    fs.rmSync(work, { recursive: true, force: true });
    return skipBecause(ctx, why);
  }
  const disk = mountTmpfs(path.join(work, 'disk'), 16);
  const dataDir = path.join(disk.mountPoint, 'data');
  try {
    const first = await spawnServer(dataDir, { STORAGE_RESERVE_MB: '0' });
    try {
      assert.equal((await new ApiClient(first.api).post('/setup', OWNER)).status, 200);
    } finally {
      await first.stop();
    }
    fillDisk(path.join(disk.mountPoint, 'filler'));

    const server = await spawnServer(dataDir, { STORAGE_RESERVE_MB: '0' });
    try {
      assert.match(server.output(), /opened without it until the next start/, 'the database has no shared-memory file');
      const cli = await runOwnerCli(['reset'], { DATA_DIR: dataDir });
      assert.equal(cli.code, 1, cli.stderr);
      assert.match(
        cli.stderr,
        /The Hearth server running on .* has its database to itself right now \(it started while the disk was full\)/,
      );
      assert.match(cli.stderr, /tray menu: "Owner locked out\? Make a recovery code…"/);
      assert.match(cli.stderr, /free some space on that disk, restart the server, and run this again/);
      assert.doesNotMatch(cli.stderr, /not a Hearth database/);
    } finally {
      await server.stop();
    }

    // The desktop app's server asked for a code on the full disk: told as a full disk.
    const t = await startTestServer({ dataDir });
    try {
      assert.throws(
        () => t.server.ownerRecoveryCode(),
        (error: unknown) => error instanceof AppError && error.code === 'storage_full',
      );
    } finally {
      await t.server.close();
    }
  } finally {
    disk.destroy();
    fs.rmSync(work, { recursive: true, force: true });
  }
});
