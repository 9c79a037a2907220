import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { heldGet, openContentFiles, until, type HeldResponse } from '../../helpers/held-responses.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * A download whose reader takes nothing for DOWNLOAD_STALL_SECONDS is closed, and the content
 * file it was reading with it: a client that asks for a large file and never reads held the file
 * and megabytes of buffers for ever (400 stalled link downloads: 145 MB to 859 MB). A reader
 * that is slow but moving is never cut off. The file is larger than loopback's kernel buffers
 * (a few MiB each way), so a reader that stops really does stop the server's writes.
 */

const MiB = 1024 * 1024;
const FILM = randomBytes(24 * MiB);
const STALL_MS = 1_000;
/** Long enough for any busy machine to look many times; a server without the rule never closes them. */
const CLOSED_WITHIN_MS = 30 * STALL_MS;

async function serverWithFilm(config: Parameters<typeof startTestServer>[0] = {}) {
  const t = await startTestServer({ downloads: { stallMs: STALL_MS }, ...config });
  if (config.https) await t.server.httpsReady();
  const owner = await setupOwner(t.client);
  const filmId = await uploadFile(t.api, owner.access, FILM, { filename: 'film.mp4' });
  return { t, owner, filmId };
}

async function holdsThenCloses(t: TestServer, held: HeldResponse[]): Promise<void> {
  for (const response of held) assert.ok(response.status === 200 || response.status === 206, `status ${response.status}`);
  // Each stalled reader holds its content file open...
  await until(() => openContentFiles(t.dataDir) === held.length, `${held.length} content files open`, CLOSED_WITHIN_MS);
  // ...until the server sees that none of them has taken anything for the stall time.
  await until(() => openContentFiles(t.dataDir) === 0, 'the stalled downloads still hold their files', CLOSED_WITHIN_MS);
  for (const response of held) response.close();
}

function bearer(owner: SignedIn): Record<string, string> {
  return { Authorization: `Bearer ${owner.access}` };
}

describe('a download that moves nothing for the stall time is closed with its file', () => {
  test('a whole download and a ranged one, each read no further than its head, are closed and their files let go', async () => {
    const { t, owner, filmId } = await serverWithFilm();
    try {
      const url = `${t.api}/nodes/${filmId}/download`;
      const whole = await heldGet(url, { headers: bearer(owner) });
      const ranged = await heldGet(url, { headers: { ...bearer(owner), Range: `bytes=${MiB}-` } });
      assert.equal(whole.headers['content-length'], String(FILM.length));
      assert.equal(ranged.headers['content-range'], `bytes ${MiB}-${FILM.length - 1}/${FILM.length}`);
      await holdsThenCloses(t, [whole, ranged]);
    } finally {
      await t.close();
    }
  });

  test("a zip and a share link's download, read no further than their heads, are closed and their files let go", async () => {
    const { t, owner, filmId } = await serverWithFilm();
    try {
      const ticket = await t.client.post('/downloads', { node_ids: [filmId] }, { token: owner.access });
      assert.equal(ticket.status, 201, JSON.stringify(ticket.body));
      const link = await t.client.post(`/nodes/${filmId}/share`, {}, { token: owner.access });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      const zip = await heldGet(`${t.url}${ticket.body.url}`);
      const shared = await heldGet(`${t.api}/s/${link.body.token}/download`);
      await holdsThenCloses(t, [zip, shared]);
    } finally {
      await t.close();
    }
  });

  test('over HTTPS too: a stalled reader on a TLS connection is closed and its file let go', async () => {
    const { t, owner, filmId } = await serverWithFilm({ https: true });
    try {
      const held = await heldGet(`${t.api}/nodes/${filmId}/download`, { headers: bearer(owner), tls: true });
      await holdsThenCloses(t, [held]);
    } finally {
      await t.close();
    }
  });
});

describe('a slow reader that keeps moving is never cut off', () => {
  test('a reader that stops for under the stall time between every 2 MiB, over many stall times in all, gets the whole file', async () => {
    // Twice the stall time of the tests above: the pauses below stay well inside it on a busy machine.
    const { t, owner, filmId } = await serverWithFilm({ downloads: { stallMs: 2 * STALL_MS } });
    try {
      const held = await heldGet(`${t.api}/nodes/${filmId}/download`, { headers: bearer(owner) });
      assert.equal(held.status, 200);
      const received = await readInBursts(held, 2 * MiB, STALL_MS / 2);
      assert.equal(received.bursts > 8, true, `only ${received.bursts} pauses: the reader was not slow`);
      assert.equal(received.bytes, FILM.length, 'the download was cut off');
    } finally {
      await t.close();
    }
  });
});

/**
 * Reads `burst` bytes, stops for `pauseMs`, and again, until the response ends (or is cut).
 * The head is behind: what follows it on the socket is the body (Content-Length framing).
 */
async function readInBursts(held: HeldResponse, burst: number, pauseMs: number): Promise<{ bytes: number; bursts: number }> {
  const length = Number(held.headers['content-length']);
  let bytes = held.bodyStart;
  let bursts = 0;
  let ended = false;
  held.socket.once('close', () => (ended = true));
  while (!ended && bytes < length) {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    bursts++;
    const target = Math.min(length, bytes + burst);
    await new Promise<void>((resolve) => {
      const onData = (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes >= target) done();
      };
      const done = () => {
        held.socket.off('data', onData);
        held.socket.off('close', done);
        held.socket.pause();
        resolve();
      };
      held.socket.on('data', onData);
      held.socket.once('close', done);
      held.socket.resume();
    });
  }
  held.close();
  return { bytes, bursts };
}
