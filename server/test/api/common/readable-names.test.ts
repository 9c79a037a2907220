import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createMember, setupOwner, type SignedIn } from '../../helpers/accounts.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';
import { assertError } from '../../helpers/assert.ts';
import { uploadFile } from '../../helpers/upload.ts';

/*
 * Issue 12, finding 12: names accepted C0/C1 controls and bidi overrides, so
 * `invoice\u202Efdp.exe` showed as "invoiceexe.pdf". Every name a person reads keeps the one
 * rule of services/common/readable-names.ts.
 */

/** Names that read differently from what they are. */
const SPOOFS = [
  'invoice\u202Efdp.exe', // RIGHT-TO-LEFT OVERRIDE
  'photo\u2067gpj.exe\u2069', // isolates
  'a\u202Ab', // embedding
  'left\u200Fright', // RIGHT-TO-LEFT MARK
  'next\u2028line', // line separator
  'bell\u0007', // C0
  'csi\u009Bname', // C1
  'del\u007F',
];

describe('names that could spoof are refused with 400 invalid_name (issue 12, finding 12)', () => {
  let t: TestServer;
  let owner: SignedIn;
  let kim: SignedIn;
  before(async () => {
    t = await startTestServer();
    owner = await setupOwner(t.client);
    kim = await createMember(t.client, owner, 'kim');
  });
  after(() => t.close());

  test('a folder created, or a node renamed, with a control character or bidi override answers 400 invalid_name', async () => {
    const folder = (await t.client.post('/nodes/folder', { name: 'Plain' }, { token: kim.access })).body;
    for (const name of SPOOFS) {
      assertError(await t.client.post('/nodes/folder', { name }, { token: kim.access }), 400, 'invalid_name', 'name');
      assertError(await t.client.patch(`/nodes/${folder.id}`, { name }, { token: kim.access }), 400, 'invalid_name', 'name');
    }
    assert.equal((await t.client.get(`/nodes/${folder.id}`, { token: kim.access })).body.name, 'Plain');
    // Right-to-left scripts themselves are welcome.
    assert.equal((await t.client.post('/nodes/folder', { name: 'صور العائلة' }, { token: kim.access })).status, 201);
  });

  test('an upload whose filename carries a bidi override is refused with 400 invalid_name before any byte is stored', async () => {
    await assert.rejects(
      uploadFile(t.api, kim.access, Buffer.from('MZ'), { filename: 'invoice\u202Efdp.exe' }),
      (error: Error) => /400/.test(String(error)) && /invalid_name/.test(String(error)),
    );
    const listed = await t.client.get('/nodes?parent_id=root', { token: kim.access });
    assert.ok(!listed.body.items.some((n: any) => n.name.includes('invoice')));
  });

  test('a display name, at registration or in the profile, with a control character or bidi override answers 400 invalid_name', async () => {
    for (const display_name of SPOOFS) {
      assertError(await t.client.patch('/me/profile', { display_name }, { token: kim.access }), 400, 'invalid_name', 'display_name');
    }
    const invite = await t.client.post('/admin/invites', {}, { token: owner.access });
    const res = await t.client.post('/auth/register', {
      username: 'lee',
      password: 'lee-password-1',
      invite_code: invite.body.code,
      display_name: 'Mum\u202E',
    });
    assertError(res, 400, 'invalid_name', 'display_name');
  });

  test('a device name shown to the approver, a server name or a library name with a bidi override answers 400 invalid_name', async () => {
    const login = await t.client.post('/auth/login', { username: 'kim', password: kim.password, device_name: 'Mum\u2019s iPhone\u202E' });
    assertError(login, 400, 'invalid_name', 'device_name');
    const settings = await t.client.patch('/server/settings', { server_name: 'Home\u202Eevil' }, { token: owner.access });
    assertError(settings, 400, 'invalid_name', 'server_name');
    const library = await t.client.post('/libraries', { name: 'Photos\u202Esoidua', path: `${t.dataDir}/second` }, { token: owner.access });
    assertError(library, 400, 'invalid_name', 'name');
  });

  test('a User-Agent is recorded without its control characters, so a waiting device cannot dress up as another', async () => {
    // HTTP carries header bytes as Latin-1: the C1 controls are what a header can smuggle.
    const res = await t.client.request('POST', '/auth/login', {
      body: { username: 'kim', password: kim.password },
      headers: { 'user-agent': 'Mum\u0085\u009b31mPhone' },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const session = (await t.client.get('/sessions', { token: res.body.access_token })).body.items.find((s: any) => s.current);
    assert.equal(session.user_agent, 'Mum31mPhone');
  });
});
