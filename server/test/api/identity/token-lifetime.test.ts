import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

/** 1 January 2100: the expiry the security review minted from a backup's keys. */
const YEAR_2100 = Date.UTC(2100, 0, 1);

/*
 * Whoever holds the token key (a copied data folder, an old backup) must not mint a token that
 * outlives the lifetime the server itself gives: a token whose expiry lies further ahead than
 * that lifetime, plus a small allowance for the clock, is refused however well it is signed.
 */
describe('an access token is refused when its expiry lies beyond the lifetime the server gives', () => {
  let t: TestServer;
  let owner: SignedIn;
  let tokenKey: Buffer;
  /** A token as the server signs them (access-tokens.ts), with the key read from its data folder. */
  const mint = (key: Buffer, body: string) => `${body}.${crypto.createHmac('sha256', key).update(body).digest('base64url')}`;
  const nodeKey = () => crypto.createHmac('sha256', tokenKey).update('hearth subkey: node-url-token').digest();

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    tokenKey = Buffer.from(JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8')).token, 'base64');
  });
  after(() => t.close());

  test('a full-scope token signed with the real key but expiring in 2100 is refused with 401', async () => {
    // The control: the same minting with an ordinary expiry is accepted, so the refusal below is about the expiry alone.
    const fair = mint(tokenKey, `${owner.sessionId}.f.${Date.now() + 10 * 60_000}`);
    assert.equal((await t.client.get('/me', { token: fair })).status, 200);
    const forever = mint(tokenKey, `${owner.sessionId}.f.${YEAR_2100}`);
    assertError(await t.client.get('/me', { token: forever }), 401, 'invalid_token');
    // Just past the 15-minute lifetime and its allowance.
    const tooLong = mint(tokenKey, `${owner.sessionId}.f.${Date.now() + 15 * 60_000 + 10 * 60_000}`);
    assertError(await t.client.get('/me', { token: tooLong }), 401, 'invalid_token');
  });

  test('a pending-scope token expiring beyond the pending lifetime is refused too', async () => {
    const forever = mint(tokenKey, `${owner.sessionId}.p.${YEAR_2100}`);
    assertError(await t.client.get(`/auth/session/${owner.sessionId}/status`, { token: forever }), 401, 'invalid_token');
  });

  test("a node's URL token expiring in 2100 is refused on the download route", async () => {
    const id = await uploadFile(t.api, owner.access, Buffer.from('a letter'), { filename: 'letter.txt' });
    const fair = mint(nodeKey(), `n1.${owner.sessionId}.${id}.${Date.now() + 60_000}`);
    assert.equal((await fetch(`${t.api}/nodes/${id}/download?access_token=${fair}`)).status, 200);
    const forever = mint(nodeKey(), `n1.${owner.sessionId}.${id}.${YEAR_2100}`);
    assert.equal((await fetch(`${t.api}/nodes/${id}/download?access_token=${forever}`)).status, 401);
  });
});
