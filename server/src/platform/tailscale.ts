import fs from 'node:fs';
import path from 'node:path';
import { canonicalAddress } from './network.ts';
import { CommandError, commandMissing, findExecutable, runCommand } from './run.ts';

/** What `tailscale status --json` says about this machine. */
export type TailscaleState =
  | { kind: 'not_found' }
  /** Installed, but logged out, stopped, or its daemon not running: `detail` says which, in Tailscale's words. */
  | { kind: 'not_running'; detail: string }
  | { kind: 'running'; self: TailnetSelf };

export interface TailnetSelf {
  /** The machine's MagicDNS name without the trailing dot: `family-pc.tail1234.ts.net`. */
  name: string;
  /** Its Tailscale addresses (100.64.0.0/10 and fd7a:115c:a1e0::/48), IPv4 first. */
  addresses: string[];
  /** Names the tailnet can get HTTPS certificates for; empty while "HTTPS Certificates" is off in its admin console. */
  certDomains: string[];
}

/** `status` answers at once from the local daemon; `cert` may wait on Let's Encrypt through it. */
const STATUS_TIMEOUT_MS = 10_000;
const CERT_TIMEOUT_MS = 120_000;

/** Where the installers put the CLI when it is not on PATH (the macOS app's CLI is the app itself). */
const INSTALLED_AT: Partial<Record<NodeJS.Platform, string[]>> = {
  darwin: ['/Applications/Tailscale.app/Contents/MacOS/Tailscale', '/usr/local/bin/tailscale', '/opt/homebrew/bin/tailscale'],
  win32: [path.join(process.env.ProgramFiles ?? 'C:\\Program Files', 'Tailscale', 'tailscale.exe')],
  linux: ['/usr/bin/tailscale', '/usr/sbin/tailscale', '/usr/local/bin/tailscale'],
};

/** The CLI to run: the configured one (TAILSCALE_PATH), else on PATH, else where its installer puts it; null when none. */
export function findTailscale(configured: string | null): string | null {
  if (configured !== null) return configured;
  const onPath = findExecutable(process.platform === 'win32' ? 'tailscale.exe' : 'tailscale');
  if (onPath) return onPath;
  return (INSTALLED_AT[process.platform] ?? []).find((candidate) => fs.existsSync(candidate)) ?? null;
}

/** Runs `tailscale status --json` (an argument array, a time limit, no shell) and reads it. */
export async function tailscaleStatus(command: string): Promise<TailscaleState> {
  let output: string;
  try {
    output = await runCommand(command, ['status', '--json'], STATUS_TIMEOUT_MS);
  } catch (error) {
    if (commandMissing(error)) return { kind: 'not_found' };
    // The daemon not running: "failed to connect to local tailscaled; it doesn't appear to be running".
    const said = error instanceof CommandError ? error.stderr.trim() : '';
    return { kind: 'not_running', detail: said.split('\n')[0] || String(error) };
  }
  return parseTailscaleStatus(output);
}

/**
 * Reads the status document. Go writes an empty list as `null`, and a logged-out machine has
 * no DNS name and no addresses: only `BackendState: "Running"` with a name is up. Everything
 * else in the document (peers, users, health) is ignored.
 */
export function parseTailscaleStatus(json: string): TailscaleState {
  let doc: StatusDocument;
  try {
    doc = JSON.parse(json) as StatusDocument;
  } catch {
    return { kind: 'not_running', detail: 'tailscale status --json did not print JSON' };
  }
  if (typeof doc !== 'object' || doc === null) return { kind: 'not_running', detail: 'tailscale status --json printed no status' };
  const state = typeof doc.BackendState === 'string' ? doc.BackendState : 'Unknown';
  const name = typeof doc.Self?.DNSName === 'string' ? doc.Self.DNSName.replace(/\.$/, '').toLowerCase() : '';
  if (state !== 'Running' || name === '') {
    const health = Array.isArray(doc.Health) ? doc.Health.filter((h): h is string => typeof h === 'string') : [];
    return { kind: 'not_running', detail: health[0] ?? `Tailscale is ${describeState(state)}` };
  }
  const listed = Array.isArray(doc.Self?.TailscaleIPs) ? doc.Self.TailscaleIPs : Array.isArray(doc.TailscaleIPs) ? doc.TailscaleIPs : [];
  const addresses = listed
    .map((a) => (typeof a === 'string' ? canonicalAddress(a) : null))
    .filter((a): a is string => a !== null)
    .sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
  const certDomains = Array.isArray(doc.CertDomains)
    ? doc.CertDomains.filter((d): d is string => typeof d === 'string').map((d) => d.replace(/\.$/, '').toLowerCase())
    : [];
  return { kind: 'running', self: { name, addresses, certDomains } };
}

/**
 * `tailscale cert --cert-file <f> --key-file <f> <name>`: tailscaled gets (or renews, or hands
 * back from its cache) a Let's Encrypt certificate for the machine's tailnet name and writes
 * the two PEM files. Throws CommandError with what it printed (HTTPS off for the tailnet, or
 * on Linux a user that is not Tailscale's operator).
 */
export async function tailscaleCert(command: string, name: string, certFile: string, keyFile: string): Promise<void> {
  await runCommand(command, ['cert', '--cert-file', certFile, '--key-file', keyFile, name], CERT_TIMEOUT_MS);
}

interface StatusDocument {
  BackendState?: unknown;
  TailscaleIPs?: unknown[] | null;
  Self?: { DNSName?: unknown; TailscaleIPs?: unknown[] | null } | null;
  Health?: unknown[] | null;
  CertDomains?: unknown[] | null;
}

function describeState(state: string): string {
  if (state === 'NeedsLogin') return 'logged out';
  if (state === 'NeedsMachineAuth') return 'waiting for the tailnet admin to approve this machine';
  if (state === 'Stopped') return 'stopped';
  if (state === 'Starting') return 'starting';
  return `not running (${state})`;
}
