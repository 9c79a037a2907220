import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findExecutable } from '../../src/platform/run.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The home network inside the namespace: one Ethernet-like adapter (a veth pair's end) with this address. */
export const NETNS_ADDRESS = '10.77.0.1';
const ADAPTER = 'hearth0';

/**
 * What the namespace is given: its loopback, and a veth pair whose one end has the "home
 * network" address, multicast and the default route (ciao picks the default route's
 * adapter). The pair lives and dies with the namespace: nothing reaches this machine's network.
 */
const SETUP = [
  'set -e',
  'ip link set lo up',
  `ip link add ${ADAPTER} type veth peer name ${ADAPTER}-peer`,
  `ip addr add ${NETNS_ADDRESS}/24 dev ${ADAPTER}`,
  `ip link set ${ADAPTER} multicast on up`,
  `ip link set ${ADAPTER}-peer up`,
  'ip route add default via 10.77.0.2',
  'exec "$@"',
].join('\n');

let missing: string | null | undefined;

/** Why a network namespace of a test's own cannot be made here, or null when it can. */
export function netnsMissing(): string | null {
  if (missing !== undefined) return missing;
  if (process.getuid?.() !== 0) missing = 'a network namespace of its own needs root (unshare --net), and this test runs as another user';
  else if (!findExecutable('unshare')) missing = 'unshare is not installed (Debian: sudo apt install util-linux)';
  else if (!findExecutable('ip')) missing = 'ip is not installed (Debian: sudo apt install iproute2)';
  else {
    const tried = spawnSync('unshare', ['--net', 'sh', '-c', SETUP, 'sh', 'true'], { encoding: 'utf8' });
    missing =
      tried.status === 0 ? null : `unshare --net with a veth pair failed here: ${(tried.stderr || tried.error?.message || '').trim()}`;
  }
  return missing;
}

export interface NetnsRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a TypeScript script (under tsx, this Node) in a network namespace of its own; resolves when it exits. */
export function runInNetns(script: string, args: string[], timeoutMs = 120_000): Promise<NetnsRun> {
  const child = spawn(
    'unshare',
    ['--net', '--', 'sh', '-c', SETUP, 'sh', process.execPath, '--import', 'tsx', path.join(ROOT, script), ...args],
    { cwd: ROOT, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} ${args.join(' ')} did not finish in ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
