#!/usr/bin/env node
/**
 * Runs a command under Node 24, the Node that Electron carries, so the server is tested on
 * node:sqlite as the desktop app runs it. The binary comes from the npm registry (the package
 * node-<os>-<arch>, which ships Node's own release build), fetched once with `npm pack` into
 * node_modules/.cache: not a dependency, because its package puts a `node` in
 * node_modules/.bin that would then run every npm script.
 *
 *   node scripts/node24.mjs --import tsx --test file.test.ts   (arguments go to Node 24)
 *   node scripts/node24.mjs --path                             (prints the binary's path)
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

export const NODE24_VERSION = '24.21.0';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function node24Path() {
  const pkg = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const dir = path.join(root, 'node_modules', '.cache', 'hearth-node24', `${pkg}-${NODE24_VERSION}`);
  const binary = path.join(dir, process.platform === 'win32' ? 'node.exe' : 'bin/node');
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const out = execFileSync(npm, ['pack', `${pkg}@${NODE24_VERSION}`, '--pack-destination', dir, '--silent'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  const tarball = path.join(dir, out.trim().split('\n').pop());
  // Only the binary: the package also carries headers and docs (2,800 files).
  const member = process.platform === 'win32' ? 'package/node.exe' : 'package/bin/node';
  fs.mkdirSync(path.dirname(binary), { recursive: true });
  fs.writeFileSync(binary, extractMember(zlib.gunzipSync(fs.readFileSync(tarball)), member), { mode: 0o755 });
  fs.rmSync(tarball);
  return binary;
}

/**
 * One file out of a tar archive, read here rather than by a `tar` command, which a machine
 * with nothing but Node may lack. ustar headers are 512-byte blocks: name, octal size, type,
 * and a prefix for long names; pax headers ('x', 'g') are skipped like any other entry.
 */
function extractMember(archive, member) {
  const text = (start, length) => archive.toString('latin1', start, start + length).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= archive.length;) {
    const name = text(at, 100);
    if (name === '') break;
    const size = parseInt(text(at + 124, 12).trim() || '0', 8);
    const prefix = text(at + 257, 6).startsWith('ustar') ? text(at + 345, 155) : '';
    const full = prefix ? `${prefix}/${name}` : name;
    const type = text(at + 156, 1);
    if (full === member && (type === '0' || type === '')) return archive.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${member} is not in the archive`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const binary = node24Path();
  if (args[0] === '--path') {
    process.stdout.write(`${binary}\n`);
  } else {
    const child = spawn(binary, args, { stdio: 'inherit' });
    for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
    child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  }
}
