import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { login, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { heldGet, type HeldRequestOptions, type HeldResponse } from '../../helpers/held-responses.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Downloads running at once are capped per client address, per session and per share link
 * (DOWNLOADS_PER_ADDRESS, _PER_SESSION, _PER_LINK): each holds a file and its buffers while its
 * reader takes it, so one client, or anyone with a link, must not open hundreds and hold them.
 * One more is refused at once with 429 too_many_downloads and Retry-After, before anything is
 * opened; a download that ends (its reader gone) gives its place back. The downloads here are
 * held open by readers that stopped reading: larger than loopback's kernel buffers, they do not
 * finish by themselves.
 */

const MiB = 1024 * 1024;
const FILM = randomBytes(16 * MiB);
const ROOMY = 1000;

interface World {
  t: TestServer;
  owner: SignedIn;
  filmId: string;
  held: HeldResponse[];
}

async function withFilm(limits: { perAddress?: number; perSession?: number; perLink?: number }, work: (w: World) => Promise<void>) {
  const t = await startTestServer({ downloads: { perAddress: ROOMY, perSession: ROOMY, perLink: ROOMY, ...limits } });
  const held: HeldResponse[] = [];
  try {
    const owner = await setupOwner(t.client);
    const filmId = await uploadFile(t.api, owner.access, FILM, { filename: 'film.mp4' });
    await work({ t, owner, filmId, held });
  } finally {
    for (const response of held) response.close();
    await t.close();
  }
}

/** A download whose reader stops after the head, kept in `w.held` (closed at the end). */
async function hold(w: World, url: string, options: HeldRequestOptions): Promise<HeldResponse> {
  const response = await heldGet(url, options);
  w.held.push(response);
  return response;
}

function assertRefused(response: HeldResponse): void {
  assert.equal(response.status, 429, JSON.stringify(response.body));
  assert.equal(response.body.error.code, 'too_many_downloads');
  assert.equal(response.headers['retry-after'], '5');
}

/** Asks again until a place is free (the server has seen a reader go); fails if none frees within 30 s. */
async function heldOnceFree(w: World, url: string, options: HeldRequestOptions): Promise<HeldResponse> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await hold(w, url, options);
    if (response.status !== 429 || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const bearer = (who: SignedIn) => ({ Authorization: `Bearer ${who.access}` });

describe('downloads at once from one client address', () => {
  test('the third from one address is 429 too_many_downloads with Retry-After (a link download too); another address is not refused; a reader gone frees its place', async () => {
    await withFilm({ perAddress: 2 }, async (w) => {
      const url = `${w.t.api}/nodes/${w.filmId}/download`;
      const from = { headers: bearer(w.owner), from: '127.0.0.2' };
      const first = await hold(w, url, from);
      assert.equal(first.status, 200);
      assert.equal((await hold(w, url, { ...from, headers: { ...from.headers, Range: 'bytes=0-' } })).status, 206);
      assertRefused(await hold(w, url, from));
      const link = await w.t.client.post(`/nodes/${w.filmId}/share`, {}, { token: w.owner.access });
      assertRefused(await hold(w, `${w.t.api}/s/${link.body.token}/download`, { from: '127.0.0.2' }));

      assert.equal((await hold(w, url, { ...from, from: '127.0.0.3' })).status, 200);
      first.close();
      assert.equal((await heldOnceFree(w, url, from)).status, 200);
    });
  });
});

describe('downloads at once for one session', () => {
  test("the third for one session is 429 from any address, its zip too, without spending the zip's ticket; another session is not refused", async () => {
    await withFilm({ perSession: 2 }, async (w) => {
      const url = `${w.t.api}/nodes/${w.filmId}/download`;
      const first = await hold(w, url, { headers: bearer(w.owner), from: '127.0.0.2' });
      assert.equal(first.status, 200);
      assert.equal((await hold(w, url, { headers: bearer(w.owner), from: '127.0.0.3' })).status, 200);
      assertRefused(await hold(w, url, { headers: bearer(w.owner), from: '127.0.0.4' }));

      // A zip's URL carries no token: its ticket's session is the one counted.
      const ticket = await w.t.client.post('/downloads', { node_ids: [w.filmId] }, { token: w.owner.access });
      assert.equal(ticket.status, 201, JSON.stringify(ticket.body));
      assertRefused(await hold(w, `${w.t.url}${ticket.body.url}`, { from: '127.0.0.4' }));

      const otherSession = await login(w.t.client, OWNER.username, OWNER.password);
      assert.equal((await hold(w, url, { headers: bearer(otherSession), from: '127.0.0.4' })).status, 200);

      first.close();
      const zip = await heldOnceFree(w, `${w.t.url}${ticket.body.url}`, { from: '127.0.0.4' });
      assert.equal(zip.status, 200, JSON.stringify(zip.body));
      assert.equal(zip.headers['content-type'], 'application/zip');
    });
  });
});

describe('downloads at once through one share link', () => {
  test('the third through one link is 429 from any address; another link to the same file is not refused', async () => {
    await withFilm({ perLink: 2 }, async (w) => {
      const link = await w.t.client.post(`/nodes/${w.filmId}/share`, {}, { token: w.owner.access });
      const other = await w.t.client.post(`/nodes/${w.filmId}/share`, {}, { token: w.owner.access });
      const url = `${w.t.api}/s/${link.body.token}/download`;
      assert.equal((await hold(w, url, { from: '127.0.0.2' })).status, 200);
      assert.equal((await hold(w, url, { from: '127.0.0.3' })).status, 200);
      assertRefused(await hold(w, url, { from: '127.0.0.4' }));
      assert.equal((await hold(w, `${w.t.api}/s/${other.body.token}/download`, { from: '127.0.0.4' })).status, 200);
    });
  });
});
