#!/usr/bin/env node
/**
 * Every icon from resources/icon.svg: the app icon per OS (PNGs for Linux, ICO for Windows,
 * ICNS for macOS), tray icons per OS (22-48 px PNGs for Linux, an ICO for Windows, a Template
 * image for macOS, which the menu bar tints), each with an "attention" variant carrying a dot,
 * and the web app's PWA icons. Run `npm run icons` after changing the SVG; the outputs are
 * committed (packaging needs them; sharp draws them).
 */
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = (...parts) => path.join(root, 'resources', ...parts);
const source = fs.readFileSync(out('icon.svg'), 'utf8');
const glyph = /<path id="glyph"[^>]*\sd="([^"]+)"/.exec(source)?.[1];
if (!glyph) throw new Error('resources/icon.svg has no <path id="glyph">');

const png = (svg, size) =>
  sharp(Buffer.from(svg), { density: Math.max(72, ((72 * size) / 512) * 4) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();

/** The glyph alone in one colour; with a dot in the corner when something waits for the owner. */
function traySvg(color, attention) {
  const dot = attention ? '<circle cx="412" cy="100" r="100" fill="#ef4444" stroke="#ffffff" stroke-width="24"/>' : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="40 40 432 432"><path fill="${color}" fill-rule="evenodd" d="${glyph}"/>${dot}</svg>`;
}

/** An ICO holding PNG images (Windows Vista and later read PNG entries). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, data }, i) => {
    const e = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, e);
    header.writeUInt8(size >= 256 ? 0 : size, e + 1);
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(data.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += data.length;
  });
  return Buffer.concat([header, ...images.map((i) => i.data)]);
}

/** An ICNS holding PNG images under their OSType codes. */
function icns(images) {
  const chunks = images.map(({ type, data }) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'ascii');
    head.writeUInt32BE(data.length + 8, 4);
    return Buffer.concat([head, data]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'ascii');
  head.writeUInt32BE(8 + chunks.reduce((n, c) => n + c.length, 0), 4);
  return Buffer.concat([head, ...chunks]);
}

async function write(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, await data);
}

// App icon.
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) await write(out('icons', `${size}x${size}.png`), png(source, size));
await write(out('icon.png'), png(source, 512));
await write(
  out('icon.ico'),
  ico(await Promise.all([16, 24, 32, 48, 64, 128, 256].map(async (size) => ({ size, data: await png(source, size) })))),
);
await write(
  out('icon.icns'),
  icns(
    await Promise.all(
      [
        ['icp4', 16],
        ['icp5', 32],
        ['icp6', 64],
        ['ic07', 128],
        ['ic08', 256],
        ['ic09', 512],
        ['ic10', 1024],
      ].map(async ([type, size]) => ({ type, data: await png(source, size) })),
    ),
  ),
);

// Tray icons.
for (const [name, attention] of [
  ['tray', false],
  ['tray-attention', true],
]) {
  for (const size of [22, 24, 32, 48]) await write(out('tray', `${name}-${size}.png`), png(traySvg('#ffffff', attention), size));
  await write(
    out('tray', `${name}.ico`),
    ico(await Promise.all([16, 24, 32].map(async (size) => ({ size, data: await png(traySvg('#ffffff', attention), size) })))),
  );
  // macOS tints a Template image itself: black and alpha only.
  await write(out('tray', `${name}Template.png`), png(traySvg('#000000', attention), 16));
  await write(out('tray', `${name}Template@2x.png`), png(traySvg('#000000', attention), 32));
}

// The web app's icons (renderer/ links them; the maskable one keeps the glyph in the safe zone).
await write(out('pwa', 'icon-192.png'), png(source, 192));
await write(out('pwa', 'icon-512.png'), png(source, 512));
await write(out('pwa', 'apple-touch-icon.png'), png(source, 180));
const maskable = source
  .replace(/<rect id="plate"[^>]*\/>/, '<rect x="0" y="0" width="512" height="512" fill="url(#warm)"/>')
  .replace('<path id="glyph"', '<path id="glyph" transform="translate(51 51) scale(0.8)"');
await write(out('pwa', 'maskable-512.png'), png(maskable, 512));
fs.copyFileSync(out('icon.svg'), out('pwa', 'icon.svg'));

process.stdout.write('icons written to resources/\n');
