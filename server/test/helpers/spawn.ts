import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_HASH_COST } from './server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface SpawnedServer {
  process: ChildProcess;
  url: string;
  api: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** SIGKILL: no shutdown code runs, as in a crash or power cut. */
  kill9(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * How `npm start` runs the server: the bundle scripts/run-node-tests.mjs built of these sources
 * for this run, with npm start's own node flags (package.json; its young generation, see
 * docs/architecture.md) and its media workers beside it, or, for a test file run on its own, the
 * sources under tsx (1.5 CPU-s more to load).
 */
function mainArgs(): string[] {
  const bundle = process.env.HEARTH_TEST_SERVER_BUNDLE;
  if (bundle) return [...startFlags(), path.join(bundle, 'server.js')];
  return ['--import', 'tsx', path.join(ROOT, 'server/src/main.ts')];
}

/** The node flags of package.json's `start` (`node --flag ... dist/server.js`): one place says them. */
function startFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  return manifest.scripts.start.split(/\s+/).filter((word) => word.startsWith('--'));
}

function spawnMain(dataDir: string, env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, mainArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: String(TEST_HASH_COST),
      MEDIA_WORKERS_AT_START: '0',
      // Never announced on this machine's network; the mDNS tests announce in a namespace of their own.
      ANNOUNCE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Starts `server/src/main.ts` expecting it to refuse to start: resolves with its exit code and
 * what it wrote once it exits, or rejects if it starts listening instead.
 */
export async function spawnRefusedServer(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  const child = spawnMain(dataDir, env);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server neither started nor refused:\n${output}`));
    }, 30_000);
    child.stdout!.on('data', () => {
      if (!/listening on http/.test(output)) return;
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`the server started where it should have refused:\n${output}`));
    });
    // 'close', not 'exit': the streams have given all they hold.
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Starts `server/src/main.ts` as its own process, the way `npm start` does. */
export async function spawnServer(dataDir: string, env: Record<string, string> = {}): Promise<SpawnedServer> {
  const child = spawnMain(dataDir, env);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000);
    const onData = () => {
      // HOST=0.0.0.0 (the mDNS tests, in a network namespace of their own) is reached on 127.0.0.1 too.
      const match = /listening on http:\/\/(?:127\.0\.0\.1|0\.0\.0\.0):(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    process: child,
    url,
    api: `${url}/api/v1`,
    output: () => output,
    kill9: async () => {
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
