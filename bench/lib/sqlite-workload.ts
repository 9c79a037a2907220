/**
 * The store's work on one engine, in a process of its own (node:sqlite needs Node 24, the
 * server's better-sqlite3 addon loads only in Node 20): prints one JSON line of figures.
 * Usage: node --import tsx bench/lib/sqlite-workload.ts <node|better> <dir>
 */
import path from 'node:path';
import { openDatabase, type SqliteEngine } from '../../server/src/store/database/db.ts';
import { createStore } from '../../server/src/store/index.ts';
import { NodesRepo } from '../../server/src/store/database/nodes.repo.ts';

const [engine, dir] = process.argv.slice(2) as [SqliteEngine, string];
const db = openDatabase(path.join(dir, `${engine}.db`), engine);
const store = createStore(db);

const timed = (work: () => void, minMs: number): { perSecond: number; usPerOp: number } => {
  let ops = 0;
  const started = performance.now();
  while (performance.now() - started < minMs) {
    work();
    ops++;
  }
  const ms = performance.now() - started;
  return { perSecond: (ops / ms) * 1000, usPerOp: (ms * 1000) / ops };
};

// Durable commits: one fsynced single-row transaction each, as a sign-in or refresh writes.
let n = 0;
const commits = timed(() => store.transaction(() => store.rateEvents.add(`bench:${n++}`, Date.now())), 3_000);

// A folder of 2,000 files for the owner, then reads as the server does them.
const owner = 'bench-owner';
db.prepare(
  `INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at)
  VALUES (?, ?, ?, 'admin', 'x', 'seed', 0, 0)`,
).run(owner, 'bench', 'bench');
const ids: string[] = [];
store.transaction(() => {
  for (let i = 0; i < 2_000; i++) {
    const id = `node-${String(i).padStart(6, '0')}`;
    ids.push(id);
    store.nodes.insert({
      id,
      owner_id: owner,
      parent_id: null,
      type: 'file',
      name: `file ${i}.jpg`,
      name_key: `file ${i}.jpg`,
      sort_name: `file ${String(i).padStart(6, '0')}.jpg`,
      search_name: `file ${i}.jpg`,
      size: 1000 + i,
      mime_type: 'image/jpeg',
      version: 1,
      created_by: owner,
      created_at: i,
      is_media: 1,
    });
  }
});
let k = 0;
const pointReads = timed(() => store.nodes.byId(ids[k++ % ids.length]!, owner), 2_000);
const repo = new NodesRepo(db);
const pages = timed(() => {
  const rows = repo.list({
    scope: { kind: 'root', userId: owner },
    search: null,
    sort: 'name',
    desc: false,
    foldersFirst: true,
    after: null,
    limit: 101,
    viewerId: owner,
  });
  if (rows.length !== 101) throw new Error(`a page of the root listing had ${rows.length} rows`);
}, 2_000);
db.close();
process.stdout.write(
  `${JSON.stringify({ engine, node: process.version, commits: commits.perSecond, pointReadUs: pointReads.usPerOp, pageUs: pages.usPerOp })}\n`,
);
