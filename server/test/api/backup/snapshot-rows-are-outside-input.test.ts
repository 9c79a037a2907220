import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../../src/store/database/db.ts';
import { createMember, login, OWNER, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { assertError } from '../../helpers/assert.ts';
import {
  addFolderDestination,
  backUp,
  destinationFolder,
  emergencyKit,
  endedRestore,
  finishedRun,
  readManifest,
  restoredServer,
  signAsTheKit,
  snapshotIdAt,
} from '../../helpers/backup.ts';
import { createFolder } from '../../helpers/nodes.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { uploadFile } from '../../helpers/upload.ts';

const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const YEAR_2100 = Date.UTC(2100, 0, 1);
/** A PDF, whatever a snapshot's row claims it is. */
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), crypto.randomBytes(4000)]);

/*
 * A snapshot's rows are input from outside even when the kit signed it (an earlier release let
 * names through that uploads now refuse; whoever holds the kit can sign anything): restoring
 * one item, browsing and restoring the whole server take names as uploads do, ids only as
 * Hearth makes them, the file's type from its bytes, and no date after the snapshot's own.
 */
describe("a snapshot's rows are cleaned or refused as outside input: names, ids, types, dates", () => {
  let t: TestServer;
  let owner: SignedIn;
  let member: SignedIn;
  let folder: string;
  let destinationId: string;
  let kit: { text: string; key: string };
  let taxes: { id: string };
  let odd: { id: string };
  let invoiceId: string;
  let receiptId: string;
  /** A snapshot of odd rows, signed with the kit (and one without the row whose id is not an id, for a whole restore). */
  let withBadId: string;
  let withoutBadId: string;
  let original: string;
  const temps: string[] = [];
  const fresh: TestServer[] = [];

  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    member = await createMember(t.client, owner, 'rows-kid');
    taxes = await createFolder(t.client, member, 'Taxes');
    invoiceId = await uploadFile(t.api, member.access, PDF, { filename: 'invoice.pdf', parentId: taxes.id });
    receiptId = await uploadFile(t.api, member.access, Buffer.from('a receipt\n'), { filename: 'receipt.txt', parentId: taxes.id });
    odd = await createFolder(t.client, member, 'Odd');
    const oddFile = await uploadFile(t.api, member.access, Buffer.from('odd\n'), { filename: 'odd.txt', parentId: odd.id });
    folder = destinationFolder();
    temps.push(folder);
    destinationId = (await addFolderDestination(t.client, owner.access, folder)).id;
    const run = await backUp(t.client, owner.access, destinationId);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    kit = await emergencyKit(t.client, owner.access);
    const rename = (db: ReturnType<typeof openConnection>, id: string, name: string) =>
      db.prepare('UPDATE nodes SET name = ?, name_key = ? WHERE id = ?').run(name, name.toLowerCase(), id);
    const odd_rows = (db: ReturnType<typeof openConnection>) => {
      rename(db, taxes.id, 'Tax/es');
      rename(db, invoiceId, 'invoice\u202Efdp.exe');
      db.prepare("UPDATE nodes SET mime_type = 'text/html' WHERE id = ?").run(invoiceId);
      db.prepare("UPDATE node_versions SET mime_type = 'text/html' WHERE node_id = ?").run(invoiceId);
      db.prepare('UPDATE nodes SET created_at = ?, updated_at = ?, taken_at = ? WHERE id = ?').run(
        YEAR_2100,
        YEAR_2100,
        YEAR_2100,
        receiptId,
      );
    };
    original = run.snapshot_id;
    withoutBadId = resign(run.snapshot_id, 'b0b0b0', odd_rows);
    withBadId = resign(run.snapshot_id, 'b1b1b1', (db) => {
      odd_rows(db);
      db.prepare("UPDATE node_versions SET blob = '../../../escape' WHERE node_id = ?").run(oddFile);
    });
  });
  after(async () => {
    for (const server of fresh) await server.close();
    await t.close();
    for (const made of temps) fs.rmSync(made, { recursive: true, force: true });
  });

  /** A copy of `snapshot` whose database `edit` changed, listed and signed as the kit signs (docs/backup-format.md). */
  function resign(
    snapshot: string,
    suffix: string,
    edit: (db: ReturnType<typeof openConnection>) => void,
    at = readManifest(folder, snapshot).at + 1000,
  ): string {
    const root = path.join(folder, 'hearth-backup', 'snapshots');
    const manifest = readManifest(folder, snapshot) as ReturnType<typeof readManifest> & Record<string, unknown>;
    const id = snapshotIdAt(at, suffix);
    fs.cpSync(path.join(root, snapshot), path.join(root, id), { recursive: true });
    fs.rmSync(path.join(root, id, 'manifest.json'));
    const dbFile = path.join(root, id, 'hearth.db');
    const db = openConnection(dbFile, { fileMustExist: true });
    try {
      edit(db);
      db.pragma('journal_mode = DELETE');
    } finally {
      db.close();
    }
    const bytes = fs.readFileSync(dbFile);
    const files = manifest.files.map((f) => {
      const moved = { ...f, path: f.path.replace(`snapshots/${snapshot}/`, `snapshots/${id}/`) };
      return moved.path.endsWith('/hearth.db') ? { ...moved, size: bytes.length, sha256: sha256(bytes) } : moved;
    });
    const signed = signAsTheKit({ ...manifest, snapshot: id, at, files }, kit.key);
    fs.writeFileSync(path.join(root, id, 'manifest.json'), JSON.stringify(signed, null, 1));
    return id;
  }

  const browse = async (snapshot: string, query: string) => {
    const res = await t.client.get(`/admin/backup/destinations/${destinationId}/snapshots/${snapshot}/nodes?${query}`, {
      token: owner.access,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.items as any[];
  };

  test('browsing shows names as uploads would take them, and no date after the snapshot', async () => {
    const at = readManifest(folder, withoutBadId).at;
    const top = await browse(withoutBadId, `user_id=${member.userId}`);
    assert.ok(
      top.some((n) => n.id === taxes.id && n.name === 'Tax_es'),
      JSON.stringify(top),
    );
    const inside = await browse(withoutBadId, `parent_id=${taxes.id}`);
    assert.equal(inside.find((n) => n.id === invoiceId).name, 'invoicefdp.exe');
    const receipt = inside.find((n) => n.id === receiptId);
    assert.ok(receipt.updated_at <= at && receipt.created_at <= at, JSON.stringify(receipt));
    assert.equal(receipt.taken_at, null);
    // The row whose content id is a path is not offered.
    const oddInside = await browse(withBadId, `parent_id=${odd.id}`);
    assert.deepEqual(oddInside, []);
  });

  test('a restored folder gets mended names and types sniffed from the bytes; a row whose id is not an id is refused', async () => {
    const base = `/admin/backup/destinations/${destinationId}/snapshots/${withBadId}`;
    const started = await t.client.post(`${base}/restore`, { node_id: taxes.id, mode: 'beside' }, { token: owner.access });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const run = await finishedRun(t.client, owner.access, started.body.id);
    assert.equal(run.state, 'succeeded', JSON.stringify(run));
    assert.match(run.restored.path, /^Tax_es \(restored /);
    const files = (await t.client.get(`/nodes?parent_id=${run.restored.node_id}&limit=100`, { token: member.access })).body.items;
    const invoice = files.find((n: any) => n.name === 'invoicefdp.exe');
    assert.ok(invoice, JSON.stringify(files.map((n: any) => n.name)));
    assert.equal(invoice.mime_type, 'application/pdf', 'sniffed from its bytes, not the row');
    for (const node of files) assert.doesNotMatch(node.name, /[/\u202E]/);

    const refused = await t.client.post(`${base}/restore`, { node_id: odd.id, mode: 'beside' }, { token: owner.access });
    assertError(refused, 409, 'backup_damaged');
    assert.match(refused.body.error.message, /not one Hearth writes/);
  });

  test('a snapshot dated more than a day ahead is not used, even signed with the kit', async () => {
    const ahead = resign(original, 'c3c3c3', () => {}, Date.now() + 3 * 24 * 60 * 60_000);
    const listed = await t.client.get(`/admin/backup/destinations/${destinationId}/snapshots`, { token: owner.access });
    assert.ok(!listed.body.items.some((s: { id: string }) => s.id === ahead), JSON.stringify(listed.body));
    assertError(
      await t.client.get(`/admin/backup/destinations/${destinationId}/snapshots/${ahead}/nodes`, { token: owner.access }),
      409,
      'snapshot_unproved',
    );
    fs.rmSync(path.join(folder, 'hearth-backup', 'snapshots', ahead), { recursive: true });
  });

  test('a whole restore mends names and dates, and refuses a database whose content ids are not ids', async () => {
    const refused = await startTestServer();
    fresh.push(refused);
    const bad = await refused.client.post('/setup/restore', { kind: 'folder', path: folder, key: kit.text, snapshot_id: withBadId });
    assert.equal(bad.status, 202, JSON.stringify(bad.body));
    const failed = await endedRestore(refused.client);
    assert.equal(failed.state, 'failed');
    assert.match(failed.error, /records Hearth does not write.*Nothing was restored/);
    assert.equal((await refused.client.get('/status')).body.setup_required, true);

    const mended = await startTestServer();
    fresh.push(mended);
    const ok = await mended.client.post('/setup/restore', { kind: 'folder', path: folder, key: kit.text, snapshot_id: withoutBadId });
    assert.equal(ok.status, 202, JSON.stringify(ok.body));
    await restoredServer(mended.client);
    const kid = await login(mended.client, 'rows-kid', member.password);
    const folderNow = (await mended.client.get(`/nodes/${taxes.id}`, { token: kid.access })).body;
    assert.equal(folderNow.name, 'Tax_es');
    const invoice = (await mended.client.get(`/nodes/${invoiceId}`, { token: kid.access })).body;
    assert.equal(invoice.name, 'invoicefdp.exe');
    const receipt = (await mended.client.get(`/nodes/${receiptId}`, { token: kid.access })).body;
    assert.ok(receipt.updated_at < YEAR_2100, JSON.stringify(receipt));
    await login(mended.client, OWNER.username, OWNER.password);
  });
});
