/**
 * The stall rule closes an answer whose reader takes nothing; it never closes one whose server
 * side has nothing to send for a while (a zip reading its next 256 MiB file under load, a drive
 * waking up), while the reader waits with room to spare. And a reader that stops reading is
 * still closed.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import Koa from 'koa';
import { closeStalledResponses } from '../../src/http/stalled-responses.ts';
import { createLogger } from '../../src/log.ts';

const STALL_MS = 200;
let server: http.Server;
let base: string;
/** Answers the server closed before their last byte was taken. */
const cutShort: string[] = [];

/** Sends `pieces` of `size` bytes, waiting `gapMs` before each: a server side slower than the stall time. */
function slowSource(pieces: number, size: number, gapMs: number): Readable {
  let sentPieces = 0;
  return new Readable({
    read() {
      if (sentPieces === pieces) return void this.push(null);
      sentPieces += 1;
      setTimeout(() => this.push(Buffer.alloc(size, 0x61)), gapMs);
    },
  });
}

before(async () => {
  const app = new Koa();
  app.use(
    closeStalledResponses(
      STALL_MS,
      createLogger('error', () => {}),
    ),
  );
  app.use((ctx) => {
    ctx.res.once('close', () => {
      if (!ctx.res.writableFinished) cutShort.push(ctx.path);
    });
    ctx.body = ctx.path === '/slow' ? slowSource(4, 1024, STALL_MS * 3) : slowSource(64, 1024 * 1024, 0);
  });
  server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('an answer whose server side pauses longer than the stall time, to a reader with room, arrives whole', async () => {
  const res = await fetch(`${base}/slow`);
  const body = Buffer.from(await res.arrayBuffer());
  assert.equal(body.length, 4 * 1024);
});

test('a reader that stops taking a large answer is closed once it has taken nothing for the stall time', async () => {
  const request = http.get(`${base}/large`, (response) => response.pause());
  request.once('error', () => {});
  try {
    for (let waited = 0; waited < STALL_MS * 50 && !cutShort.includes('/large'); waited += 50) await sleep(50);
    assert.ok(cutShort.includes('/large'), 'the stalled reader was closed');
  } finally {
    request.destroy();
  }
  assert.ok(!cutShort.includes('/slow'), 'the slow answer was never cut');
});
