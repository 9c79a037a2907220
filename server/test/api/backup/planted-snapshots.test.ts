import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  addFolderDestination,
  ageEncryptTo,
  backUp,
  destinationFolder,
  emergencyKit,
  finishedRun,
  snapshotIdAt,
} from '../../helpers/backup.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { missingTool } from '../../helpers/skip.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

/*
 * Someone who can write to the backup drive, or to the bucket, holds the public key that sits
 * in clear beside the files: enough to make age files that decrypt with the kit. A snapshot
 * they plant there (dated to be the newest, its database giving a family member a file of
 * theirs) is never listed, browsed or restored from: only snapshots signed with the kit's key are.
 */
describe('a snapshot planted in an encrypted backup with only its public key is never listed, browsed or restored from', () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  let folder: string;
  let destinationId: string;
  let real: string;
  let letterId: string;
  let publicKey: string;
  let kitText: string;
  const temps: string[] = [];
  const payload = Buffer.from('Pay the invoice to IBAN XX00 ATTACKER\n');

  before(async () => {
    const missing = missingTool('age', 'age');
    // The attacker's tool: without it this file cannot plant anything (CI installs it: .ci/run).
    if (missing) throw new Error(missing);
    t = await startTestServer();
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'planted-kid');
    letterId = await uploadFile(t.api, member.access, Buffer.from('a real letter\n'), { filename: 'letter.txt' });
    folder = destinationFolder();
    temps.push(folder);
    destinationId = (await addFolderDestination(t.client, owner.access, folder, { encrypt: true })).id;
    const run = await backUp(t.client, owner.access, destinationId);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    real = run.snapshot_id;
    publicKey = fs.readFileSync(path.join(folder, 'hearth-backup', 'age-recipient.txt'), 'utf8').trim();
    kitText = (await emergencyKit(t.client, owner.access)).text;
  });
  after(async () => {
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /**
   * What the attacker writes: a database (any Hearth's: here the server's own, so its ids are
   * the family's) in which the member's letter is their file, that file, and a manifest dated an
   * hour ahead, each encrypted to the public key with the age command. Format 1 is what Hearth
   * read before signatures; format 2 with a made-up signature is what an attacker would try now.
   */
  async function plant(format: 1 | 2): Promise<string> {
    const at = Date.now() + 60 * 60_000;
    const id = snapshotIdAt(at, format === 1 ? 'a1a1a1' : 'a2a2a2');
    const work = await makeTempDir('hearth-attacker-');
    temps.push(work);
    const db = path.join(work, 'hearth.db');
    const live = openConnection(path.join(t.dataDir, 'hearth.db'), { readonly: true, fileMustExist: true });
    try {
      await live.backupTo(db);
    } finally {
      live.close();
    }
    const blob = `01ATTACKER${crypto.randomBytes(8).toString('hex').toUpperCase()}`;
    const forged = openConnection(db, { fileMustExist: true });
    try {
      forged
        .prepare('UPDATE node_versions SET blob = ?, size = ?, sha256 = ? WHERE node_id = ?')
        .run(blob, payload.length, sha256(payload), letterId);
      forged.prepare('UPDATE nodes SET size = ? WHERE id = ?').run(payload.length, letterId);
      forged.pragma('journal_mode = DELETE');
    } finally {
      forged.close();
    }
    const root = path.join(folder, 'hearth-backup');
    const put = (relative: string, plain: Buffer) => {
      fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
      fs.writeFileSync(path.join(root, relative), ageEncryptTo(publicKey, plain));
    };
    const dbBytes = fs.readFileSync(db);
    const content = format === 1 ? `content/internal/${blob.slice(-2)}/${blob}` : `content/ab/cd/${crypto.randomBytes(32).toString('hex')}`;
    put(`snapshots/${id}/hearth.db`, dbBytes);
    put(content, payload);
    const manifest = {
      format: format === 1 ? 'hearth-backup/1+age' : 'hearth-backup/2+age',
      snapshot: id,
      at,
      server_id: (await t.client.get('/status')).body.server_id,
      server_version: '0.1.0',
      files: [
        { path: `snapshots/${id}/hearth.db`, size: dbBytes.length, sha256: sha256(dbBytes) },
        { path: content, size: payload.length, sha256: sha256(payload), ...(format === 2 && { library: 'internal', blob }) },
      ],
      ...(format === 2 && { mac: crypto.randomBytes(32).toString('hex') }),
    };
    put(`snapshots/${id}/manifest.json`, Buffer.from(JSON.stringify(manifest, null, 1)));
    return id;
  }

  /** The console, as the owner uses it: the list, browsing, restoring the letter beside the real one. */
  async function assertRefusedByTheConsole(planted: string): Promise<void> {
    const listed = await t.client.get(`/admin/backup/destinations/${destinationId}/snapshots`, { token: owner.access });
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.deepEqual(
      listed.body.items.map((s: { id: string }) => s.id),
      [real],
      'only the snapshot the server made is listed',
    );
    const base = `/admin/backup/destinations/${destinationId}/snapshots/${planted}`;
    assertError(await t.client.get(`${base}/nodes?user_id=${member.userId}`, { token: owner.access }), 409, 'snapshot_unproved');
    assertError(await t.client.get(`${base}/people`, { token: owner.access }), 409, 'snapshot_unproved');
    const before = (await t.client.get('/nodes?parent_id=root&limit=1000', { token: member.access })).body.items.length;
    const restore = await t.client.post(`${base}/restore`, { node_id: letterId, mode: 'beside' }, { token: owner.access });
    if (restore.status === 202) await finishedRun(t.client, owner.access, restore.body.id);
    assertError(restore, 409, 'snapshot_unproved');
    const now = (await t.client.get('/nodes?parent_id=root&limit=1000', { token: member.access })).body.items;
    assert.equal(now.length, before, "nothing was planted in the member's files");
  }

  test('a planted snapshot in the format Hearth read before signatures is not listed, browsed or restored from', async () => {
    await assertRefusedByTheConsole(await plant(1));
  });

  test('a planted snapshot with a made-up signature is refused the same way, and "Check backup" names it', async () => {
    await assertRefusedByTheConsole(await plant(2));
    const verify = await backUp(t.client, owner.access, destinationId, 'verify');
    assert.equal(verify.state, 'failed');
    assert.match(verify.error, /not signed with this server's backup key/);
    // A run leaves them where they are (nothing is deleted that is not provably Hearth's own), and says so.
    const run = await backUp(t.client, owner.access, destinationId);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    // The format-1 one reads as one from an earlier release (only a whole restore at the owner's word takes it).
    assert.ok(
      run.problems.some((p: { reason: string }) => /One snapshot in this backup is not signed/.test(p.reason)),
      JSON.stringify(run.problems),
    );
    real = run.snapshot_id;
  });

  test('a fresh install offers the planted format-1 snapshot only as unsigned, refuses it without consent, and never lists the other', async () => {
    const fresh = await startTestServer();
    try {
      const listed = await fresh.client.post('/setup/restore/snapshots', { kind: 'folder', path: folder, key: kitText });
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      const signed = listed.body.items.filter((s: { signed: boolean }) => s.signed).map((s: { id: string }) => s.id);
      const unsigned = listed.body.items.filter((s: { signed: boolean }) => !s.signed).map((s: { id: string }) => s.id);
      assert.ok(signed.includes(real), JSON.stringify(listed.body));
      assert.equal(unsigned.length, 1, 'the format-1 one, flagged; the one with a made-up signature is not there');
      assert.ok(unsigned[0].endsWith('-a1a1a1'));
      assertError(
        await fresh.client.post('/setup/restore', { kind: 'folder', path: folder, key: kitText, snapshot_id: unsigned[0] }),
        409,
        'backup_unsigned',
        'accept_unsigned',
      );
      assert.equal((await fresh.client.get('/status')).body.setup_required, true, 'nothing restored');
    } finally {
      await fresh.close();
    }
  });
});
