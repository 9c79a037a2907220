import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { makeTempDir } from '../helpers/server.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('the bundle `npm start` runs is built, starts with only DATA_DIR and PORT set, and answers /healthz', async () => {
  const out = await makeTempDir('hearth-build-');
  // The very script `npm start` runs first.
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  const bundle = path.join(ROOT, 'dist', 'server.js');
  const child = spawn(process.execPath, [bundle], {
    cwd: out,
    env: { PATH: process.env.PATH, DATA_DIR: path.join(out, 'data'), PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 30_000);
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /^listening on http:\/\/127\.0\.0\.1:(\d+)$/m.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(`http://127.0.0.1:${match[1]}`);
        }
      });
      child.stderr.on('data', (chunk) => (output += chunk));
      child.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });
    const health = await fetch(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');
    const status = (await (await fetch(`${url}/api/v1/status`)).json()) as { setup_required: boolean };
    assert.equal(status.setup_required, true);
    await fs.access(path.join(out, 'data', 'hearth.db'));

    // The bundle's media worker is a separate file: a photo gets its thumbnail through it.
    const setup = (await (
      await fetch(`${url}/api/v1/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'owner', password: 'owner-password-1' }),
      })
    ).json()) as { access_token: string };
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    const created = await fetch(`${url}/api/v1/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${setup.access_token}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(photo.length),
        'upload-metadata': `filename ${Buffer.from('p.jpg').toString('base64')}`,
        'content-type': 'application/offset+octet-stream',
      },
      body: photo,
    });
    const nodeId = created.headers.get('service-node-id');
    assert.ok(nodeId, `no node: ${created.status}`);
    let node: { has_thumbnail: boolean; image_width?: number } = { has_thumbnail: false };
    for (let i = 0; i < 100 && !node.has_thumbnail; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      node = (await (
        await fetch(`${url}/api/v1/nodes/${nodeId}`, { headers: { authorization: `Bearer ${setup.access_token}` } })
      ).json()) as typeof node;
    }
    assert.equal(node.has_thumbnail, true);
    assert.equal(node.image_width, 64);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await fs.rm(out, { recursive: true, force: true });
  }
});
