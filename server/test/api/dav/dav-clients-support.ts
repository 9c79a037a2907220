import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { SignedIn } from '../../helpers/accounts.ts';
import type { TestServer } from '../../helpers/server.ts';
import type { DriveLogin } from './dav-support.ts';

export const RCLONE = '/usr/bin/rclone';

/** What a real client needs to reach the drive: the /dav/ URL and the drive password. */
export interface Remote {
  url: string;
  login: DriveLogin;
}

/**
 * rclone's environment for a remote named `hearth`: its config through RCLONE_CONFIG_HEARTH_*
 * and an empty config file in `configDir`, so a user's own ~/.config/rclone is never read.
 */
export async function rcloneEnv(remote: Remote, configDir: string): Promise<NodeJS.ProcessEnv> {
  const configFile = path.join(configDir, 'rclone.conf');
  await fs.writeFile(configFile, '');
  const obscured = await run(RCLONE, ['obscure', remote.login.password], { RCLONE_CONFIG: configFile });
  return {
    PATH: process.env.PATH,
    HOME: configDir,
    RCLONE_CONFIG: configFile,
    RCLONE_CONFIG_HEARTH_TYPE: 'webdav',
    RCLONE_CONFIG_HEARTH_URL: remote.url,
    RCLONE_CONFIG_HEARTH_VENDOR: 'other',
    RCLONE_CONFIG_HEARTH_USER: remote.login.username,
    RCLONE_CONFIG_HEARTH_PASS: obscured.stdout.trim(),
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A command to its end (asynchronously: the server under test runs in this process). */
export function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeout = 120_000): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** rclone with JSON logs; fails the test when it exits non-zero. */
export async function rclone(env: NodeJS.ProcessEnv, args: string[]): Promise<RunResult> {
  const result = await run(RCLONE, [...args, '--use-json-log', '-v', '--stats', '1h'], env);
  assert.equal(result.code, 0, `rclone ${args.join(' ')} failed:\n${result.stderr}`);
  return result;
}

/** rclone started, not awaited: the killed-sync test stops it midway. */
export function startRclone(env: NodeJS.ProcessEnv, args: string[]): { child: ChildProcess; exited: Promise<void> } {
  const child = spawn(RCLONE, [...args, '--use-json-log', '-v'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  child.stderr!.resume();
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, exited };
}

/** How many files rclone says it sent, from the final stats of a JSON log (`-v`). */
export function transfersOf(log: string): number {
  let transfers: number | null = null;
  for (const line of log.split('\n')) {
    if (!line.startsWith('{')) continue;
    const entry = JSON.parse(line) as { stats?: { transfers?: number } };
    if (entry.stats?.transfers !== undefined) transfers = entry.stats.transfers;
  }
  assert.notEqual(transfers, null, `no stats in rclone's log:\n${log}`);
  return transfers!;
}

/** Every file under `dir`, by its path relative to `dir` (slashes), with its sha256. */
export async function localTree(dir: string): Promise<Map<string, { size: number; sha256: string }>> {
  const out = new Map<string, { size: number; sha256: string }>();
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const bytes = await fs.readFile(full);
    out.set(path.relative(dir, full).split(path.sep).join('/'), {
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
  }
  return out;
}

/** Every file the web app lists under the folder `parentId` (null: the top), by path, with its size. */
export async function apiTree(t: TestServer, who: SignedIn, parentId: string | null, prefix = ''): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams();
    if (parentId) query.set('parent_id', parentId);
    if (cursor) query.set('cursor', cursor);
    const res = await t.client.get(`/nodes?${query}`, { token: who.access });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const node of res.body.items as { id: string; name: string; type: string; size: number }[]) {
      if (node.type === 'folder') {
        for (const [name, size] of await apiTree(t, who, node.id, `${prefix}${node.name}/`)) out.set(name, size);
      } else out.set(`${prefix}${node.name}`, node.size);
    }
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

/** Bytes that differ from file to file and do not compress (a cheap xorshift). */
export function noise(size: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(size);
  let x = (seed * 2654435761) >>> 0 || 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}
