/**
 * Packaging, offline and in seconds: electron-builder packs the unpacked Linux app from
 * electron-builder.yml against a stand-in Electron (no download), which checks the config's
 * schema, its file globs and what is unpacked from the asar; and the icons generated from
 * resources/icon.svg are all there in the sizes and formats each OS wants.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as { listPackage(file: string): string[] };
const fuses = require('@electron/fuses') as { getCurrentFuseWire(file: string): Promise<Record<string, number | string>> };
/** Where Electron's binary keeps its fuse wire (from @electron/fuses). */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const BUILDER = path.join(ROOT, 'node_modules/.bin/electron-builder');

function pack(output: string, standIn: string, extra: string[] = []) {
  return spawnSync(
    BUILDER,
    ['--dir', '--linux', '--x64', '--publish', 'never', `-c.electronDist=${standIn}`, `-c.directories.output=${output}`, ...extra],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false' },
    },
  );
}

describe('packaging (electron-builder --dir against a stand-in Electron)', () => {
  let work: string;
  let standIn: string;
  let app: string;
  let listing: string[];

  before(() => {
    assert.ok(fs.existsSync(path.join(ROOT, 'dist-electron/main.js')), 'npm run build:desktop first');
    assert.ok(fs.existsSync(path.join(ROOT, 'renderer/dist/index.html')), 'npm run build:web first');
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-pack-'));
    standIn = path.join(work, 'electron-dist');
    fs.mkdirSync(standIn);
    // A script with Electron's fuse wire in it (sentinel, version 1, 8 fuses in Electron's
    // defaults), so electron-builder flips fuses in it as in the real binary.
    const wire = Buffer.concat([Buffer.from(FUSE_SENTINEL), Buffer.from([1, 8]), Buffer.from('10110001')]);
    fs.writeFileSync(
      path.join(standIn, 'electron'),
      Buffer.concat([Buffer.from('#!/bin/sh\necho stand-in for the Electron binary\nexit 0\n# '), wire, Buffer.from('\n')]),
      { mode: 0o755 },
    );
    fs.writeFileSync(path.join(standIn, 'version'), '45.4.1');
    const result = pack(path.join(work, 'out'), standIn);
    assert.equal(result.status, 0, `${result.stdout}\n${result.stderr}`);
    app = path.join(work, 'out/linux-unpacked');
    listing = asar.listPackage(path.join(app, 'resources/app.asar'));
  });
  after(() => fs.rmSync(work, { recursive: true, force: true }));

  test('a config with a key electron-builder does not know is refused (the schema is checked)', () => {
    const result = pack(path.join(work, 'bad'), standIn, ['-c.notAnOption=1']);
    assert.notEqual(result.status, 0);
    assert.match(result.stdout + result.stderr, /notAnOption|unknown property/i);
  });

  test('the app holds the bundled main, server, media, face and content-copy workers and preload, the face models and their WebAssembly, the backup cipher, and the entry package.json points at main', () => {
    for (const file of [
      '/dist-electron/main.js',
      '/dist-electron/server-child.js',
      '/dist-electron/media-worker.js',
      '/dist-electron/face-worker.js',
      '/dist-electron/content-copy-worker.js',
      '/node_modules/@vladmandic/human/models/blazeface.json',
      '/node_modules/@vladmandic/human/models/facemesh.bin',
      '/node_modules/@vladmandic/human/models/faceres.bin',
      '/node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm',
      // The backup cipher where Electron's crypto has none (age-aead.ts): its WebAssembly is inside libsodium.js.
      '/node_modules/libsodium-wrappers/dist/modules/libsodium-wrappers.js',
      '/node_modules/libsodium/dist/modules/libsodium.js',
      '/dist-electron/preload.cjs',
      '/package.json',
      '/renderer/dist/index.html',
    ]) {
      assert.ok(listing.includes(file), file);
    }
    assert.ok(fs.existsSync(path.join(app, 'hearth')), 'the executable is named hearth');
  });

  test('sharp, its @img addon and libvips, and the npm-packaged ffmpeg are unpacked from the asar (the OS cannot read inside it)', () => {
    const unpacked = path.join(app, 'resources/app.asar.unpacked/node_modules');
    const ffmpeg = path.join(unpacked, `@ffmpeg-installer/${process.platform}-${process.arch}/ffmpeg`);
    assert.ok(fs.statSync(ffmpeg).mode & 0o111, 'ffmpeg is there and executable');
    const addon = fs.readdirSync(path.join(unpacked, '@img/sharp-linux-x64/lib')).filter((f) => f.endsWith('.node'));
    assert.equal(addon.length, 1);
    const libvips = fs.readdirSync(path.join(unpacked, '@img/sharp-libvips-linux-x64/lib')).filter((f) => f.startsWith('libvips'));
    assert.ok(libvips.length > 0);
    assert.ok(fs.existsSync(path.join(unpacked, 'sharp/package.json')));
  });

  test('nothing the app never loads is shipped: better-sqlite3 (built for plain Node), build tools, sources, source maps', () => {
    const unwanted = listing.filter(
      (f) =>
        /^\/node_modules\/(better-sqlite3|esbuild|@esbuild|tsx)\/|^\/(server|main|bench|scripts)\/|\.map$|\.ts$/.test(f) &&
        !f.endsWith('.d.ts'),
    );
    assert.deepEqual(unwanted, []);
  });

  test("the fuses are flipped in the app's binary: no NODE_OPTIONS, no --inspect, asar only and checked, cookies encrypted; run-as-node kept for the media workers", async () => {
    const wire = await fuses.getCurrentFuseWire(path.join(app, 'hearth'));
    const on = (i: number) => String.fromCharCode(wire[String(i)] as number);
    assert.deepEqual([0, 1, 2, 3, 4, 5, 7].map(on), ['1', '1', '0', '0', '1', '1', '0']);
  });

  test('the tray and window icons are shipped beside the asar', () => {
    for (const file of ['tray/tray-22.png', 'tray/tray-attention-22.png', 'tray/tray.ico', 'tray/trayTemplate.png', 'icons/512x512.png']) {
      assert.ok(fs.existsSync(path.join(app, 'resources/icons', file)), file);
    }
  });
});

describe('icons from resources/icon.svg', () => {
  const res = (...p: string[]) => path.join(ROOT, 'resources', ...p);

  test('app icon PNGs for Linux in every size, tray PNGs 22-48 px, and PWA icons, each the size its name says', async () => {
    const sizes: [string, number][] = [
      ...[16, 24, 32, 48, 64, 128, 256, 512, 1024].map((n): [string, number] => [`icons/${n}x${n}.png`, n]),
      ...[22, 24, 32, 48].flatMap((n): [string, number][] => [
        [`tray/tray-${n}.png`, n],
        [`tray/tray-attention-${n}.png`, n],
      ]),
      ['tray/trayTemplate.png', 16],
      ['tray/trayTemplate@2x.png', 32],
      ['pwa/icon-192.png', 192],
      ['pwa/icon-512.png', 512],
      ['pwa/maskable-512.png', 512],
      ['pwa/apple-touch-icon.png', 180],
    ];
    for (const [file, size] of sizes) {
      const meta = await sharp(res(file)).metadata();
      assert.equal(meta.format, 'png', file);
      assert.equal(meta.width, size, file);
      assert.equal(meta.height, size, file);
    }
  });

  test("macOS's Template tray image is black and alpha only, so the menu bar can tint it", async () => {
    const { data, info } = await sharp(res('tray/trayTemplate@2x.png')).raw().toBuffer({ resolveWithObject: true });
    for (let i = 0; i < data.length; i += info.channels) assert.deepEqual([data[i], data[i + 1], data[i + 2]], [0, 0, 0]);
  });

  test('the Windows ICOs and the macOS ICNS hold PNG images of the standard sizes', () => {
    for (const [file, count] of [
      ['icon.ico', 7],
      ['tray/tray.ico', 3],
      ['tray/tray-attention.ico', 3],
    ] as const) {
      const ico = fs.readFileSync(res(file));
      assert.equal(ico.readUInt16LE(2), 1, `${file} is an icon`);
      assert.equal(ico.readUInt16LE(4), count, file);
    }
    const icns = fs.readFileSync(res('icon.icns'));
    assert.equal(icns.subarray(0, 4).toString('ascii'), 'icns');
    assert.equal(icns.readUInt32BE(4), icns.length);
    assert.ok(icns.includes(Buffer.from('ic10')), 'the 1024 px image');
  });
});
