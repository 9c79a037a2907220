import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import { addFolderDestination, backUp, destinationFolder, emergencyKit } from '../../helpers/backup.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { missingTool, skipBecause } from '../../helpers/skip.ts';

const YEAR_2100 = Date.UTC(2100, 0, 1);

/** Every file under a folder, with its path relative to it. */
function filesUnder(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((p) => fs.statSync(path.join(root, p)).isFile());
}

/*
 * A plain backup is the family's files in clear, by design; it must not also be a key to the
 * live server. Whoever finds the USB disk must not find the key that signs access tokens (to
 * mint one for the owner's session), the link and two-step keys, or the home certificate
 * authority's private key (to pass for the server on every phone that trusts it).
 */
describe('a plain backup holds no key in clear: not the token key, nor the link and two-step keys, nor the authority', () => {
  let t: TestServer;
  let owner: SignedIn;
  let folder: string;
  let snapshot: string;
  let live: { token: string; link: string; totp: string; authority: { keyPem: string; certPem: string } };
  const temps: string[] = [];

  before(async () => {
    t = await startTestServer({ https: true });
    await t.server.httpsReady();
    owner = await setupOwner(t.client);
    folder = destinationFolder();
    temps.push(folder);
    const dest = await addFolderDestination(t.client, owner.access, folder);
    const run = await backUp(t.client, owner.access, dest.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    snapshot = run.snapshot_id;
    live = JSON.parse(fs.readFileSync(path.join(t.dataDir, 'keys.json'), 'utf8'));
    assert.match(live.authority.keyPem, /PRIVATE KEY/, 'the server has its authority');
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  test('no file of the backup holds any of the keys, in any encoding', () => {
    const root = path.join(folder, 'hearth-backup');
    const secrets: [string, Buffer][] = [];
    for (const name of ['token', 'link', 'totp'] as const) {
      const raw = Buffer.from(live[name], 'base64');
      secrets.push(
        [`${name} (base64)`, Buffer.from(live[name])],
        [`${name} (bytes)`, raw],
        [`${name} (hex)`, Buffer.from(raw.toString('hex'))],
      );
    }
    // A line from the middle of the authority's private key: present in any copy of the PEM.
    const pemLine = live.authority.keyPem.split(/\r?\n/)[5]!;
    secrets.push(['the authority key', Buffer.from(pemLine)], ['a private key', Buffer.from('PRIVATE KEY')]);
    for (const relative of filesUnder(root)) {
      const bytes = fs.readFileSync(path.join(root, relative));
      for (const [what, secret] of secrets) assert.ok(!bytes.includes(secret), `${relative} holds ${what} in clear`);
    }
  });

  test("whoever reads the backup's keys.json cannot sign a token the server takes", async () => {
    const text = fs.readFileSync(path.join(folder, 'hearth-backup', 'snapshots', snapshot, 'keys.json'), 'latin1');
    let found: { token?: string } = {};
    try {
      found = JSON.parse(text) as { token?: string };
    } catch {
      // Not JSON: what it is, is said below.
    }
    assert.equal(found.token, undefined, 'no token key to be read');
    assert.match(text, /^age-encryption\.org\/v1\n/, 'an age file, sealed to the emergency kit');
    // The attack itself, with any key the file might give: a token for the owner's session until 2100.
    const key = Buffer.from(found.token ?? '', 'base64');
    const body = `${owner.sessionId}.f.${YEAR_2100}`;
    const minted = `${body}.${crypto.createHmac('sha256', key).update(body).digest('base64url')}`;
    assertError(await t.client.get('/me', { token: minted }), 401, 'invalid_token');
  });

  test('with the emergency kit, keys.json opens to the link and two-step keys and the authority, and still no token key', async (ctx) => {
    const missing = missingTool('age', 'age');
    if (missing) return skipBecause(ctx, missing);
    const dir = await makeTempDir('hearth-kit-');
    temps.push(dir);
    fs.writeFileSync(path.join(dir, 'kit.txt'), (await emergencyKit(t.client, owner.access)).text);
    const opened = JSON.parse(
      execFileSync('age', ['-d', '-i', path.join(dir, 'kit.txt'), path.join(folder, 'hearth-backup', 'snapshots', snapshot, 'keys.json')], {
        encoding: 'utf8',
      }),
    );
    assert.deepEqual(opened, { link: live.link, totp: live.totp, authority: live.authority });
    // The database beside it holds the owner's session, which is why the token key must not travel.
    const db = openConnection(path.join(folder, 'hearth-backup', 'snapshots', snapshot, 'hearth.db'), {
      readonly: true,
      fileMustExist: true,
    });
    try {
      assert.ok(db.prepare('SELECT id FROM sessions WHERE id = ?').get(owner.sessionId));
    } finally {
      db.close();
    }
  });
});
