// A content file shared by several accounts' versions survives kill -9 at any point of uploads
// and deletes for good racing on it: after each restart every version's file is there with its
// bytes, every acknowledged upload that was not deleted downloads whole, every acknowledged
// delete stays done, and no content file is left that no version refers to (nothing lost,
// nothing leaked once the start-up clean-up has run).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openConnection } from '../../src/store/database/db.ts';
import { createMember, login, OWNER, type SignedIn } from '../helpers/accounts.ts';
import { ApiClient, makeTempDir } from '../helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../helpers/spawn.ts';

const TUS = '1.0.0';
const ROUNDS = 6;
/** A few contents, uploaded again and again by two accounts: most uploads find their bytes already stored. */
const CONTENTS = Array.from({ length: 4 }, () => crypto.randomBytes(192 * 1024));

interface Live {
  id: string;
  who: 'mum' | 'dad';
  content: Buffer;
}

describe('shared content across kill -9', () => {
  let dataDir: string;
  let server: SpawnedServer | undefined;
  let client: ApiClient;
  const accounts: Record<'mum' | 'dad', SignedIn> = {} as never;

  async function start(): Promise<void> {
    server = await spawnServer(dataDir);
    client = new ApiClient(server.api);
  }

  async function signInAgain(): Promise<void> {
    for (const who of ['mum', 'dad'] as const) accounts[who] = await login(client, accounts[who].username, accounts[who].password);
  }

  async function uploadOnce(who: 'mum' | 'dad', content: Buffer): Promise<string> {
    const headers = { authorization: `Bearer ${accounts[who].access}`, 'Tus-Resumable': TUS };
    const created = await fetch(`${server!.api}/uploads`, {
      method: 'POST',
      headers: {
        ...headers,
        'Upload-Length': String(content.length),
        'Upload-Metadata': `filename ${Buffer.from('IMG.jpg').toString('base64')}`,
      },
    });
    if (created.status !== 201) throw new Error(`create ${created.status}`);
    const done = await fetch(created.headers.get('location')!, {
      method: 'PATCH',
      headers: { ...headers, 'Content-Type': 'application/offset+octet-stream', 'Upload-Offset': '0' },
      body: content as BodyInit,
    });
    const id = done.headers.get('service-node-id');
    if (done.status !== 204 || !id) throw new Error(`patch ${done.status}`);
    return id;
  }

  async function deleteForGood(who: 'mum' | 'dad', id: string): Promise<void> {
    const res = await fetch(`${server!.api}/nodes/${id}/permanent`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${accounts[who].access}` },
    });
    if (res.status !== 204) throw new Error(`delete ${res.status}`);
  }

  /** Version rows and the content files on disk, as they are now. */
  async function look(): Promise<{ versions: { blob: string; sha256: string | null; size: number }[]; files: Map<string, string> }> {
    const db = openConnection(path.join(dataDir, 'hearth.db'), { fileMustExist: true, readonly: true });
    let versions;
    try {
      db.pragma('busy_timeout = 5000');
      versions = db.prepare('SELECT blob, sha256, size FROM node_versions').all() as {
        blob: string;
        sha256: string | null;
        size: number;
      }[];
    } finally {
      db.close();
    }
    const base = path.join(dataDir, 'files', 'blobs');
    const entries = await fs.readdir(base, { recursive: true, withFileTypes: true });
    const files = new Map(entries.filter((e) => e.isFile()).map((e) => [e.name, path.join(e.parentPath, e.name)] as const));
    return { versions, files };
  }

  before(async () => {
    dataDir = await makeTempDir('hearth-shared-crash-');
    await start();
    const setup = await client.post('/setup', OWNER);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const owner = { access: setup.body.access_token } as SignedIn;
    accounts.mum = await createMember(client, owner, 'mum');
    accounts.dad = await createMember(client, owner, 'dad');
  });

  after(async () => {
    if (server && server.process.exitCode === null && server.process.signalCode === null) await server.kill9();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test('uploads and deletes of the same bytes, killed at random moments, lose nothing and leak nothing', async () => {
    let live: Live[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const deleted = new Map<string, 'mum' | 'dad'>();
      const touched = new Set<string>();
      // Two chains per account, each uploading or deleting one of its files for good, until the crash.
      let running = true;
      const chain = async (who: 'mum' | 'dad') => {
        while (running) {
          const mine = live.filter((f) => f.who === who && !touched.has(f.id));
          if (mine.length > 0 && Math.random() < 0.4) {
            const victim = mine[Math.floor(Math.random() * mine.length)]!;
            touched.add(victim.id);
            await deleteForGood(who, victim.id).then(() => deleted.set(victim.id, who));
          } else {
            const content = CONTENTS[Math.floor(Math.random() * CONTENTS.length)]!;
            live = [...live, { id: await uploadOnce(who, content), who, content }];
          }
        }
      };
      const chains = [chain('mum'), chain('dad'), chain('mum'), chain('dad')].map((p) => p.catch(() => {}));
      await new Promise((resolve) => setTimeout(resolve, 150 + Math.random() * 600));
      running = false;
      await server!.kill9();
      await Promise.all(chains);
      await start();
      await signInAgain();

      live = live.filter((f) => !deleted.has(f.id));
      // A delete that was under way at the crash may or may not have happened: either is fine, as long as it is whole.
      const settled: Live[] = [];
      for (const file of live) {
        const res = await fetch(`${server!.api}/nodes/${file.id}/download`, {
          headers: { authorization: `Bearer ${accounts[file.who].access}` },
        });
        if (res.status === 404 && touched.has(file.id)) continue;
        assert.equal(res.status, 200, `round ${round}: an acknowledged upload is missing`);
        assert.ok(Buffer.from(await res.arrayBuffer()).equals(file.content), `round ${round}: a file's bytes changed`);
        settled.push(file);
      }
      live = settled;
      for (const [id, who] of deleted) {
        const res = await fetch(`${server!.api}/nodes/${id}`, { headers: { authorization: `Bearer ${accounts[who].access}` } });
        assert.equal(res.status, 404, `round ${round}: an acknowledged delete came back`);
      }

      // Once the start-up clean-up has run: every version's file is there with its bytes, and
      // every file on disk is one a version refers to. The clean-up (and the merge of files with
      // the same bytes left apart by the crash) runs while we look, moving versions to another
      // file and then removing the old one: so the state is judged once two looks in a row agree.
      const deadline = Date.now() + 15_000;
      const shape = (s: Awaited<ReturnType<typeof look>>) =>
        JSON.stringify([s.versions.map((v) => v.blob).sort(), [...s.files.keys()].sort()]);
      let state = await look();
      const leaked = () => [...state.files.keys()].filter((blob) => !state.versions.some((v) => v.blob === blob));
      const missing = () => state.versions.filter((v) => !state.files.has(v.blob));
      for (;;) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        const next = await look();
        const settledNow = shape(next) === shape(state);
        state = next;
        if ((settledNow && leaked().length === 0 && missing().length === 0) || Date.now() > deadline) break;
      }
      assert.deepEqual(leaked(), [], `round ${round}: content files no version refers to`);
      for (const version of state.versions) {
        const file = state.files.get(version.blob);
        assert.ok(file, `round ${round}: a version's content file is missing`);
        const bytes = await fs.readFile(file);
        assert.equal(bytes.length, version.size);
        if (version.sha256 !== null) assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), version.sha256);
      }
      // Sharing really happened (two uploads of the same bytes completing at the same moment may each keep their own).
      if (state.versions.length > 2 * CONTENTS.length)
        assert.ok(
          state.files.size < state.versions.length,
          `round ${round}: ${state.files.size} files for ${state.versions.length} versions`,
        );
    }
  });
});
