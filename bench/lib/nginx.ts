/**
 * Debian's nginx as a reference file server: installed with apt-get when missing, run as a
 * child process in the foreground (`daemon off; master_process off;`) with a config and a
 * prefix of its own in a temp dir, on 127.0.0.1 only. Stopped like any tracked child.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { log } from './report.ts';
import { stopChild, tempDir, removeTempDir, track } from './proc.ts';
import { freePort, waitForPort } from './transfer.ts';

const execFileAsync = promisify(execFile);

async function findNginx(): Promise<string | null> {
  try {
    const { stdout } = await execFileAsync('sh', ['-c', 'command -v nginx'], { timeout: 10_000 });
    if (stdout.trim() !== '') return stdout.trim();
  } catch {
    // not on PATH
  }
  return fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : null;
}

/** The nginx binary, installing Debian's `nginx-light` (or `nginx`) first if there is none. */
export async function ensureNginx(): Promise<string> {
  const found = await findNginx();
  if (found) return found;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = async (pkg: string) => {
    log(`  nginx missing: apt-get install -y ${pkg}...`);
    await execFileAsync('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
      env,
      timeout: 300_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  };
  const attempts: (() => Promise<void>)[] = [
    () => install('nginx-light'),
    () => install('nginx'),
    async () => {
      log('  apt-get update...');
      await execFileAsync('apt-get', ['update'], { env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
      await install('nginx-light').catch(() => install('nginx'));
    },
  ];
  let lastError: unknown = null;
  for (const attempt of attempts) {
    try {
      await attempt();
      const installed = await findNginx();
      if (installed) return installed;
    } catch (error) {
      lastError = error;
    }
  }
  throw new Error(`could not install nginx with apt-get: ${lastError instanceof Error ? lastError.message : String(lastError)}`);
}

export interface Nginx {
  port: number;
  /** The HTTPS port (the same files), when started with `tls`. */
  tlsPort: number | null;
  pid: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * A self-signed certificate for 127.0.0.1 made by openssl (RSA 2048, as Hearth's own), in `dir`.
 * Only the bulk cipher matters to a large download's CPU; the key's kind shows in the one handshake.
 */
export async function makeSelfSignedCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  await execFileAsync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=127.0.0.1'],
    { timeout: 60_000 },
  );
  return { cert, key };
}

/**
 * nginx serving the files of `root` at `/` with sendfile, on a free 127.0.0.1 port; with `tls`,
 * the same files over HTTPS on a second port, as Debian's nginx does TLS out of the box (its
 * default ssl settings: 16 KiB TLS writes, no kernel TLS, so no sendfile over TLS).
 */
export async function startNginx(binary: string, root: string, tls?: { cert: string; key: string }): Promise<Nginx> {
  const prefix = await tempDir('hearth-bench-nginx-');
  const port = await freePort();
  const tlsPort = tls ? await freePort() : null;
  const tlsServer =
    tls && tlsPort !== null
      ? `
  server {
    listen 127.0.0.1:${tlsPort} ssl;
    ssl_certificate ${tls.cert};
    ssl_certificate_key ${tls.key};
    ssl_protocols TLSv1.2 TLSv1.3;
    root ${root};
    location / { }
  }`
      : '';
  const conf = path.join(prefix, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${path.join(prefix, name)};`;
  await fsp.writeFile(
    conf,
    `daemon off;
master_process off;
worker_processes 1;
pid ${path.join(prefix, 'nginx.pid')};
error_log ${path.join(prefix, 'error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_timeout 65;
  default_type application/octet-stream;
  ${temp('client_body')}
  ${temp('proxy')}
  ${temp('fastcgi')}
  ${temp('uwsgi')}
  ${temp('scgi')}
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { }
  }${tlsServer}
}
`,
  );
  const child = track(
    spawn(binary, ['-p', prefix, '-c', conf, '-e', path.join(prefix, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const stop = async () => {
    await stopChild(child);
    await removeTempDir(prefix);
  };
  try {
    await Promise.race([
      Promise.all([waitForPort(port), tlsPort !== null && waitForPort(tlsPort)]),
      new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`nginx exited with ${code}: ${output}`)))),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, tlsPort, pid: child.pid!, process: child, stop };
}
