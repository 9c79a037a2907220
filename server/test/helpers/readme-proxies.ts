import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import { fileURLToPath } from 'node:url';
import { missingTool } from './skip.ts';
import type { ApiResponse } from './server.ts';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md');
/** The name the README's examples serve. */
export const PROXY_NAME = 'photos.example.org';
/** The address the README's examples send to Hearth, and the port they send to. */
const README_HEARTH = '127.0.0.1:8420';

/** A reverse proxy of the README's, running in front of a test server. */
export interface RunningProxy {
  name: string;
  port: number;
  /** Where the visitor's requests go in: HTTPS on PROXY_NAME, trusted through `ca`. */
  request(method: string, route: string, options?: ProxyRequestOptions): Promise<ApiResponse>;
  stop(): Promise<void>;
}

export interface ProxyRequestOptions {
  headers?: Record<string, string>;
  body?: unknown;
  rawBody?: Buffer;
  /** The visitor's own address (127.0.0.2, 127.0.0.3...): the one the proxy sees and forwards. */
  from?: string;
}

export interface ProxyKind {
  name: 'Caddy' | 'nginx';
  /** Why it cannot run here, or null. */
  missing(): string | null;
  start(hearthPort: number, dir: string): Promise<RunningProxy>;
}

/**
 * The example of the README's "A reverse proxy or tunnel" section fenced as `language`, as it
 * is written: the test runs what an owner copies, so the two cannot drift apart.
 */
export function readmeExample(language: 'caddyfile' | 'nginx'): string {
  const readme = fs.readFileSync(README, 'utf8');
  const section = /^### A reverse proxy or tunnel\n([\s\S]*?)^#{2,3} /m.exec(readme)?.[1];
  if (section === undefined) throw new Error('README has no "### A reverse proxy or tunnel" section');
  const example = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'm').exec(section)?.[1];
  if (example === undefined) throw new Error(`README's reverse proxy section has no \`\`\`${language} example`);
  return example;
}

/** `text` with each `from` replaced by its `to`; a `from` the text lacks means the README changed shape. */
function templated(text: string, replacements: [string, string][]): string {
  let result = text;
  for (const [from, to] of replacements) {
    if (!result.includes(from)) throw new Error(`the README's example no longer contains "${from}":\n${text}`);
    result = result.split(from).join(to);
  }
  return result;
}

export const CADDY: ProxyKind = {
  name: 'Caddy',
  missing: () => missingTool('caddy', 'caddy'),
  async start(hearthPort, dir) {
    const [httpPort, httpsPort] = [await freePort(), await freePort()];
    const storage = path.join(dir, 'caddy-data');
    // The global options are the test's: its ports, its folders, and Caddy's own local authority
    // in place of Let's Encrypt (this machine reaches no one). The site block is the README's.
    const site = templated(readmeExample('caddyfile'), [[README_HEARTH, `127.0.0.1:${hearthPort}`]]);
    const config = [
      '{',
      '\tadmin off',
      '\tlocal_certs',
      '\tskip_install_trust',
      `\thttp_port ${httpPort}`,
      `\thttps_port ${httpsPort}`,
      '\tdefault_bind 127.0.0.1',
      `\tstorage file_system ${storage}`,
      '}',
      site,
    ].join('\n');
    const file = path.join(dir, 'Caddyfile');
    fs.writeFileSync(file, config);
    const env = { ...process.env, HOME: dir, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir };
    const child = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const root = path.join(storage, 'pki/authorities/local/root.crt');
    return running('Caddy', child, httpsPort, () => (fs.existsSync(root) ? fs.readFileSync(root) : null));
  },
};

export const NGINX: ProxyKind = {
  name: 'nginx',
  missing: () => missingTool('nginx', 'nginx') ?? missingTool('openssl', 'openssl'),
  async start(hearthPort, dir) {
    const port = await freePort();
    const cert = path.join(dir, 'fullchain.pem');
    const key = path.join(dir, 'privkey.pem');
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert].concat([
        '-days',
        '2',
        '-subj',
        `/CN=${PROXY_NAME}`,
        '-addext',
        `subjectAltName=DNS:${PROXY_NAME}`,
      ]),
      { stdio: 'pipe' },
    );
    const site = templated(readmeExample('nginx'), [
      ['listen 443 ', `listen 127.0.0.1:${port} `],
      [`/etc/letsencrypt/live/${PROXY_NAME}/fullchain.pem`, cert],
      [`/etc/letsencrypt/live/${PROXY_NAME}/privkey.pem`, key],
      [README_HEARTH, `127.0.0.1:${hearthPort}`],
    ]);
    // What nginx.conf around conf.d holds, in the test's folder; the server block is the README's.
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${path.join(dir, kind)};`);
    const config = [
      'daemon off;',
      'master_process off;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      'error_log stderr;',
      'events { worker_connections 256; }',
      'http {',
      'access_log off;',
      ...temp,
      site,
      '}',
    ].join('\n');
    const file = path.join(dir, 'nginx.conf');
    fs.writeFileSync(file, config);
    const child = spawn('nginx', ['-e', 'stderr', '-p', dir, '-c', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    const ca = fs.readFileSync(cert);
    return running('nginx', child, port, () => ca);
  },
};

/** Waits until the proxy answers TLS on `port` with a certificate `caOf` vouches for. */
async function running(name: string, child: ChildProcess, port: number, caOf: () => Buffer | null): Promise<RunningProxy> {
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  let exited = false;
  const gone = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  const stop = async () => {
    if (!exited) child.kill('SIGTERM');
    await gone;
  };
  const deadline = Date.now() + 30_000;
  let ca: Buffer | null = null;
  while (ca === null || !(await handshakes(port, ca))) {
    if (exited || Date.now() > deadline) {
      await stop();
      throw new Error(`${name} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    ca ??= caOf();
  }
  const trusted = ca;
  return { name, port, stop, request: (method, route, options) => send(port, trusted, method, route, options) };
}

function handshakes(port: number, ca: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, servername: PROXY_NAME, ca }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

function send(port: number, ca: Buffer, method: string, route: string, options: ProxyRequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { host: `${PROXY_NAME}:${port}`, ...options.headers };
  let payload = options.rawBody;
  if (payload === undefined && options.body !== undefined) {
    payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] ??= 'application/json';
  }
  if (payload !== undefined) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = https.request(
      { host: '127.0.0.1', port, servername: PROXY_NAME, ca, method, path: route, headers, agent: false, localAddress: options.from },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const responseHeaders = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
          const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
          resolve({ status: res.statusCode!, headers: responseHeaders, body: json ? JSON.parse(text) : text });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
