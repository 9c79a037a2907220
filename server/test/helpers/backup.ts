import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ApiClient } from './server.ts';

/** A fresh folder outside every data dir (symlinks resolved), for a destination. */
export function destinationFolder(prefix = 'hearth-backup-dest-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * A folder destination, plain unless `extra` says `encrypt: true`: the API's default is encrypted
 * (destinations.test.ts proves it), and most tests read the backup's files by hand.
 */
export async function addFolderDestination(client: ApiClient, token: string, folder: string, extra: object = {}): Promise<any> {
  const res = await client.post('/admin/backup/destinations', { kind: 'folder', path: folder, encrypt: false, ...extra }, { token });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

/** Starts a run (backup or verify) and answers the 202's run. */
export async function startRun(client: ApiClient, token: string, destinationId: string, kind: 'run' | 'verify' = 'run'): Promise<any> {
  const res = await client.post(`/admin/backup/destinations/${destinationId}/${kind}`, undefined, { token });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  assert.equal(res.body.state, 'running');
  return res.body;
}

/**
 * Asks `ask` every `everyMs` until it answers a value. A wait the test's few files keep going
 * this long is stuck: it fails saying `what` and what was last seen, not left to the file's
 * 300 s timeout, which says nothing.
 */
async function polled<T>(what: string, everyMs: number, ask: () => Promise<{ value?: T; seen: string }>): Promise<T> {
  const deadline = Date.now() + RUN_DEADLINE_MS;
  for (;;) {
    const { value, seen } = await ask();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} after ${RUN_DEADLINE_MS / 1000} s: ${seen}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Far above any run of these tests, even on a loaded machine (seconds), and well under a file's 300 s. */
const RUN_DEADLINE_MS = 120_000;

/** The run once it has ended. */
export async function finishedRun(client: ApiClient, token: string, runId: string): Promise<any> {
  return polled('the run was still running', 25, async () => {
    const res = await client.get(`/admin/backup/runs/${runId}`, { token });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.state === 'running' ? { seen: JSON.stringify(res.body) } : { value: res.body, seen: '' };
  });
}

export async function backUp(client: ApiClient, token: string, destinationId: string, kind: 'run' | 'verify' = 'run'): Promise<any> {
  return finishedRun(client, token, (await startRun(client, token, destinationId, kind)).id);
}

/** One file or folder of a snapshot brought back beside itself: the restore run once it has ended. */
export async function restoreBeside(
  client: ApiClient,
  token: string,
  destinationId: string,
  snapshot: string,
  nodeId: string,
): Promise<any> {
  const res = await client.post(
    `/admin/backup/destinations/${destinationId}/snapshots/${snapshot}/restore`,
    { node_id: nodeId, mode: 'beside' },
    { token },
  );
  assert.equal(res.status, 202, JSON.stringify(res.body));
  return finishedRun(client, token, res.body.id);
}

/** Where the server keeps the content file holding exactly `bytes` (the internal library). */
export function blobHolding(dataDir: string, bytes: Buffer): string {
  const base = path.join(dataDir, 'files', 'blobs');
  for (const shard of fs.readdirSync(base)) {
    for (const name of fs.readdirSync(path.join(base, shard))) {
      const file = path.join(base, shard, name);
      if (fs.statSync(file).size === bytes.length && fs.readFileSync(file).equals(bytes)) return file;
    }
  }
  throw new Error('no content file holds these bytes');
}

/**
 * Puts a named pipe where a content file is, so that a backup reading it waits there: `reached`
 * resolves once the backup has opened it (the run is then mid-way, at a known point), and
 * `release` hands it the original bytes. `restore` puts the real file back.
 */
export function holdContentFile(file: string): { reached: Promise<fs.promises.FileHandle>; release(): Promise<void>; restore(): void } {
  const bytes = fs.readFileSync(file);
  const saved = `${file}.saved`;
  fs.renameSync(file, saved);
  execFileSync('mkfifo', [file]);
  // Opening a pipe for writing waits for its reader: the backup.
  const reached = fs.promises.open(file, 'w');
  let opened = false;
  void reached.then(() => (opened = true));
  return {
    reached,
    release: async () => {
      const handle = await reached;
      await handle.write(bytes);
      await handle.close();
    },
    restore: () => {
      // A test that failed before the backup came: its waiting open must not hold the process.
      if (!opened) fs.closeSync(fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK));
      void reached.then((handle) => handle.close()).catch(() => {});
      fs.rmSync(file, { force: true });
      fs.renameSync(saved, file);
    },
  };
}

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export function readManifest(folder: string, snapshotId: string): { snapshot: string; at: number; files: ManifestFile[]; format: string } {
  return JSON.parse(fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', snapshotId, 'manifest.json'), 'utf8'));
}

/** Waits until a fresh server has started again on restored data; throws when it says the restore failed. */
export async function restoredServer(client: ApiClient): Promise<void> {
  await polled('the server was not up on the restored data', 50, async () => {
    try {
      const status = await client.get('/status');
      const seen = `/status ${status.status} ${JSON.stringify(status.body)}`;
      if (status.status === 200 && status.body.setup_required === false && status.body.restoring === false) return { value: true, seen };
      if (status.status !== 200 || status.body.restoring !== false) return { seen };
      const run = await client.get('/setup/restore');
      if (run.status === 200 && run.body.state === 'failed') throw new Error(`restore failed: ${run.body.error}`);
      return { seen: `${seen}; /setup/restore ${run.status} ${JSON.stringify(run.body)}` };
    } catch (error) {
      if ((error as Error).message.startsWith('restore failed')) throw error;
      // The moment the server stops and starts again on the restored data: no answer yet.
      return { seen: `no answer (${(error as Error).message})` };
    }
  });
}

/** The restore run once it has ended on a server that stayed fresh (a failure). */
export async function endedRestore(client: ApiClient): Promise<any> {
  return polled('the restore was still running', 25, async () => {
    const run = await client.get('/setup/restore');
    assert.equal(run.status, 200, JSON.stringify(run.body));
    return run.body.state === 'running' ? { seen: JSON.stringify(run.body) } : { value: run.body, seen: '' };
  });
}

/** A snapshot id as Hearth makes them (time, then random hex): `20261125T031500Z-4f2a9c`. */
export function snapshotIdAt(at: number, suffix = 'f0f0f0'): string {
  return `${new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${suffix}`;
}

/** Bytes encrypted to a public key with the `age` command, as anyone holding only age-recipient.txt can. */
export function ageEncryptTo(recipient: string, plain: Buffer): Buffer {
  return execFileSync('age', ['-r', recipient], { input: plain, maxBuffer: 64 * 1024 * 1024 });
}

/** The emergency kit, as the owner downloads it: its text and its AGE-SECRET-KEY-1… line. */
export async function emergencyKit(client: ApiClient, token: string): Promise<{ text: string; key: string; publicKey: string }> {
  const kit = await client.get('/admin/backup/kit', { token });
  assert.equal(kit.status, 200, JSON.stringify(kit.body));
  return { text: kit.body.file_text, key: kit.body.key, publicKey: kit.body.public_key };
}

/**
 * A manifest signed as docs/backup-format.md says, by whoever holds the kit: HMAC-SHA256 keyed
 * by HKDF-SHA256 of the kit's AGE-SECRET-KEY-1… line, over the manifest's JSON without `mac`.
 */
export function signAsTheKit(manifest: object, kitKey: string): object {
  const { mac: _mac, ...body } = manifest as { mac?: string };
  const key = Buffer.from(crypto.hkdfSync('sha256', kitKey, Buffer.alloc(0), 'hearth-backup/2 manifest signature', 32));
  return {
    ...body,
    mac: crypto
      .createHmac('sha256', key)
      .update(JSON.stringify(body, null, 1))
      .digest('hex'),
  };
}
