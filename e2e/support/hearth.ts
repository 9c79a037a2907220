import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Hearth {
  url: string;
  port: number;
  api: Api;
  dataDir: string;
  /** The owner's token pair as the desktop app's main process gets it (in-process); null before setup. */
  localSession(): Promise<unknown>;
  /** First-run setup as the desktop app's bridge does it (in-process): `{ok, tokens}` or `{ok: false, error}`. */
  setupThroughApp(input: { username: string; password: string; server_name?: string }): Promise<unknown>;
  /** The setup code and address a fresh headless server prints for its owner; null once set up. */
  setupCode(): Promise<{ code: string; url: string } | null>;
  stop(): Promise<void>;
}

/**
 * Starts the real server (bundled by e2e/run.ts, or its sources via tsx) on 127.0.0.1 with a
 * fresh temp data dir, serving renderer/dist. `env` changes its environment (a PATH without a tool, for a PC that lacks it).
 */
export async function startHearth(config: Record<string, unknown> = {}, env: Record<string, string> = {}): Promise<Hearth> {
  // A spec's own data folder (one holding an older authority, one on a small disk) becomes this server's and goes with it.
  const dataDir = typeof config.dataDir === 'string' ? config.dataDir : await fs.mkdtemp(path.join(os.tmpdir(), 'hearth-e2e-'));
  // The bundle of serve.ts e2e/run.ts made for this run, or the sources under tsx without it.
  const bundle = process.env.HEARTH_E2E_SERVER_BUNDLE;
  const entry = bundle
    ? ['--enable-source-maps', path.join(bundle, 'serve.js')]
    : ['--import', 'tsx', path.join(ROOT, 'e2e/support/serve.ts')];
  const child = spawn(process.execPath, [...entry, JSON.stringify({ ...config, dataDir })], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const url = await readyLine(child);
  return {
    url,
    port: Number(new URL(url).port),
    api: new Api(`${url}/api/v1`),
    dataDir,
    localSession: () => ask(child, 'local-session'),
    setupThroughApp: (input) => ask(child, 'setup', JSON.stringify(input)),
    setupCode: () => ask(child, 'setup-code') as Promise<{ code: string; url: string } | null>,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

function readyLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error('the server did not start within 60 s')), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready (\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

/** One question on the server's stdin, its answer on stdout (see serve.ts): one at a time. */
let asking: Promise<unknown> = Promise.resolve();
function ask(child: ChildProcess, command: string, argument?: string): Promise<unknown> {
  const answer = asking.then(
    () =>
      new Promise<unknown>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`the server did not answer ${command}`)), 10_000);
        const onData = (chunk: Buffer) => {
          out += chunk.toString();
          const match = new RegExp(`^${command} (.*)\\n`, 'm').exec(out);
          if (!match) return;
          clearTimeout(timer);
          child.stdout!.off('data', onData);
          const body = JSON.parse(match[1]!) as { error?: string } | null;
          if (command === 'local-session' && body && typeof body === 'object' && 'error' in body) reject(new Error(body.error));
          else resolve(body);
        };
        child.stdout!.on('data', onData);
        child.stdin!.write(argument === undefined ? `${command}\n` : `${command} ${argument}\n`);
      }),
  );
  asking = answer.catch(() => undefined);
  return answer;
}

export interface Account {
  id: string;
  username: string;
  password: string;
  access: string;
  refresh: string;
  sessionId: string;
}

/** Plain HTTP to the API from the test side: seeding and checking what the browser did. */
export class Api {
  constructor(readonly base: string) {}

  async call<T = any>(method: string, route: string, token?: string, body?: unknown): Promise<{ status: number; body: T }> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.base + route, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return {
      status: response.status,
      body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T,
    };
  }

  async ok<T = any>(method: string, route: string, token?: string, body?: unknown): Promise<T> {
    const res = await this.call<T>(method, route, token, body);
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async login(username: string, password: string, extra: object = {}): Promise<Account> {
    const body = await this.ok('POST', '/auth/login', undefined, { username, password, ...extra });
    return { id: body.user.id, username, password, access: body.access_token, refresh: body.refresh_token, sessionId: body.session_id };
  }

  /** The owner of a fresh server. */
  async setupOwner(username = 'owner', password = 'owner-password-1'): Promise<Account> {
    const body = await this.ok('POST', '/setup', undefined, { username, password, server_name: 'Home' });
    return { id: body.user.id, username, password, access: body.access_token, refresh: body.refresh_token, sessionId: body.session_id };
  }

  /** A family member, invited by the owner and registered. */
  async member(owner: Account, username: string, password = `${username}-password-1`): Promise<Account> {
    const invite = await this.ok('POST', '/admin/invites', owner.access, {});
    await this.ok('POST', '/auth/register', undefined, { username, password, invite_code: invite.code });
    return this.login(username, password);
  }
}

let counter = 0;
/** A username no other test on this server uses. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}${process.pid % 1000}x${counter}`;
}

/** Uploads a file through the real tus endpoint (tus-js-client in Node), as another device would; resolves to the node id. */
export async function uploadAs(
  api: Api,
  account: Account,
  name: string,
  content: Buffer,
  extra: Record<string, string> = {},
): Promise<string> {
  const { Upload } = await import('tus-js-client');
  return new Promise((resolve, reject) => {
    const upload = new Upload(content, {
      endpoint: `${api.base}/uploads`,
      headers: { Authorization: `Bearer ${account.access}` },
      metadata: { filename: name, filetype: name.endsWith('.jpg') ? 'image/jpeg' : 'application/octet-stream', ...extra },
      storeFingerprintForResuming: false,
      onError: reject,
      onSuccess: ({ lastResponse }) => resolve(lastResponse.getHeader('Service-Node-Id') ?? ''),
    });
    upload.start();
  });
}
