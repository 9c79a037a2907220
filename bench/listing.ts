import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { openConnection, openDatabase } from '../server/src/store/database/db.ts';
import { NodesRepo, type Keyset, type ListQuery } from '../server/src/store/database/nodes.repo.ts';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../server/test/helpers/spawn.ts';
import { removeTempDir, rssKb, stopChild, tempDir, track } from './lib/proc.ts';
import { timedGet } from './lib/http.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { productionEnv } from './lib/server.ts';
import { median, sleep, summarize } from './lib/stats.ts';
import { TreeBuilder } from './lib/tree-builder.ts';

const FOLDER_CHILDREN = 10_000;
const GALLERY_IMAGES = 100_000;
const IMAGES_PER_FOLDER = 1_000;
const TOTAL_NODES = 1_000_000;
const DOCS_PER_ARCHIVE = 1_000;
const PAGE = 100;
const DEEP_PAGE = 50;
/** HTTP and direct-SQL samples alternate in rounds, so a change in machine load hits both alike. */
const ROUNDS = 3;
const SAMPLES_PER_ROUND = 100;
const WARMUP_SAMPLES = 20;
/** Samples per query of the re-run on 1,000,000 nodes (reported in the notes). */
const SAMPLES_AT_1M = 100;
const STARTS = 3;
const SETTLE_MS = 2_000;

/** The server process on the bench's data dir, as `npm start` runs it (LOG_LEVEL=warn). */
async function startServer(dataDir: string): Promise<{ server: SpawnedServer; ms: number }> {
  const t0 = performance.now();
  const server = await spawnServer(dataDir, productionEnv({ LOG_LEVEL: 'warn' }));
  const ms = performance.now() - t0;
  track(server.process);
  return { server, ms };
}

interface Page {
  items: { id: string }[];
  next_cursor: string | null;
}

/** What the server's listing cursor holds (base64url JSON: sort, desc, kind, value, id). */
function keysetOf(cursor: string): Keyset {
  const [, , kind, value, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [
    string,
    boolean,
    number,
    string | number,
    string,
  ];
  return { kind, value, id };
}

interface Query {
  name: string;
  /** Under the API base, which changes with each server start (a new port). */
  path: string;
  direct: ListQuery;
  http: number[];
  sql: number[];
}

/** Median of a few timings (the start-up figures). */

/**
 * Listing latency and the cost of a large tree. The data dir is built fast by writing rows
 * straight into the server's database with better-sqlite3 (the server stopped), as the server
 * writes them for uploaded files: name columns from node-names.ts, a version row per file,
 * images with is_media=1, image/jpeg and taken_at/taken_sort. First 110,101 nodes: a folder
 * of 10,000 documents and 100,000 images in 100 folders; then the same account grows to
 * 1,000,000 nodes with archive folders of documents.
 *
 * Latency (p50/p99 over HTTP, sequential requests on one keep-alive connection) of the first
 * page of the 10,000-child folder by name, of the gallery's first page and of its page 50.
 * References in the same run: the same NodesRepo.list query run directly on a read-only
 * better-sqlite3 connection in the bench process, and GET /api/v1/healthz (the HTTP floor).
 * At 1,000,000 nodes: time to the listening line, openDatabase() time, and RSS idle after one
 * listing, each against the same on the data dir holding only the owner.
 */
export async function benchListing(): Promise<BenchResult> {
  const dataDir = await tempDir('hearth-bench-listing-');
  const dbFile = path.join(dataDir, 'hearth.db');
  let running: SpawnedServer | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const stop = async () => {
    if (running) await stopChild(running.process);
    running = null;
  };
  try {
    // The schema and the owner, made by the server itself.
    running = (await startServer(dataDir)).server;
    const owner = await setupOwner(new ApiClient(running.api));
    await stop();

    log('  start-up, open and RSS with only the owner...');
    const small = await measureStartup(dataDir, dbFile, owner.access, (s) => (running = s));
    await stop();

    log(`  building ${(1 + FOLDER_CHILDREN + GALLERY_IMAGES / IMAGES_PER_FOLDER + GALLERY_IMAGES).toLocaleString('en')} nodes...`);
    const builder = new TreeBuilder(dbFile, owner.userId);
    const t0 = performance.now();
    const folderId = builder.build(() => {
      const folder = builder.folder(null, 'Big folder');
      for (let i = 0; i < FOLDER_CHILDREN; i++) builder.document(folder, i);
      for (let f = 0; f < GALLERY_IMAGES / IMAGES_PER_FOLDER; f++) {
        const photos = builder.folder(null, `Photos ${String(f + 1).padStart(3, '0')}`);
        for (let i = 0; i < IMAGES_PER_FOLDER; i++) builder.image(photos, f * IMAGES_PER_FOLDER + i);
      }
      return folder;
    });
    const firstBuildMs = performance.now() - t0;
    const smallCount = builder.count;
    log(`  built ${smallCount.toLocaleString('en')} nodes in ${(firstBuildMs / 1000).toFixed(1)} s`);

    running = (await startServer(dataDir)).server;
    let api = running.api;
    const token = owner.access;
    const reader = openConnection(dbFile, { readonly: true });
    const repo = new NodesRepo(reader);
    // As ListingService builds them: a page and one row more; folders first except in the
    // flat views of files (gallery, recent); the gallery's default sort is newest taken first.
    const base = { search: null, limit: PAGE + 1, viewerId: owner.userId } as const;
    const gallery = {
      ...base,
      scope: { kind: 'gallery', scope: { userId: owner.userId, family: null } },
      sort: 'taken',
      desc: true,
      foldersFirst: false,
    } as const;
    let cursor: string | null = null;
    for (let page = 1; page < DEEP_PAGE; page++) {
      const res = await timedGet(agent, `${api}/nodes?filter=gallery&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`, token);
      cursor = (JSON.parse(res.body) as Page).next_cursor;
      if (res.status !== 200 || !cursor) throw new Error(`gallery page ${page} answered ${res.status} without a next page`);
    }
    const queries: Query[] = [
      {
        name: `first page of a ${FOLDER_CHILDREN.toLocaleString('en')}-child folder by name`,
        path: `/nodes?parent_id=${folderId}&sort=name&limit=${PAGE}`,
        direct: { ...base, scope: { kind: 'children', container: folderId }, sort: 'name', desc: false, foldersFirst: true, after: null },
        http: [],
        sql: [],
      },
      {
        name: `gallery first page (${GALLERY_IMAGES.toLocaleString('en')} images)`,
        path: `/nodes?filter=gallery&limit=${PAGE}`,
        direct: { ...gallery, after: null },
        http: [],
        sql: [],
      },
      {
        name: `gallery page ${DEEP_PAGE} (keyset cursor)`,
        path: `/nodes?filter=gallery&limit=${PAGE}&cursor=${cursor!}`,
        direct: { ...gallery, after: keysetOf(cursor!) },
        http: [],
        sql: [],
      },
    ];
    const health: number[] = [];
    // The same rows both ways, or the comparison means nothing.
    for (const q of queries) {
      const res = await timedGet(agent, api + q.path, token);
      const page = JSON.parse(res.body) as Page;
      const rows = repo.list(q.direct);
      if (
        res.status !== 200 ||
        page.items.length !== PAGE ||
        !page.next_cursor ||
        rows.length !== PAGE + 1 ||
        rows[0]!.id !== page.items[0]!.id
      ) {
        throw new Error(`${q.name}: HTTP answered ${res.status} with ${page.items.length} items, the direct query ${rows.length} rows`);
      }
    }
    const sampleHttp = async (url: string, auth: string | null, into: number[] | null, count: number) => {
      for (let i = 0; i < count; i++) {
        const res = await timedGet(agent, url, auth);
        if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
        into?.push(res.ms);
      }
    };
    const sampleSql = (q: ListQuery, into: number[] | null, count: number) => {
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        repo.list(q);
        into?.push(performance.now() - t);
      }
    };
    for (const q of queries) {
      await sampleHttp(api + q.path, token, null, WARMUP_SAMPLES);
      sampleSql(q.direct, null, WARMUP_SAMPLES);
    }
    await sampleHttp(`${api}/healthz`, null, null, WARMUP_SAMPLES);
    for (let round = 1; round <= ROUNDS; round++) {
      log(`  round ${round}/${ROUNDS}: ${SAMPLES_PER_ROUND} requests per listing over HTTP, to healthz, and as direct queries`);
      for (const q of queries) await sampleHttp(api + q.path, token, q.http, SAMPLES_PER_ROUND);
      await sampleHttp(`${api}/healthz`, null, health, SAMPLES_PER_ROUND);
      for (const q of queries) sampleSql(q.direct, q.sql, SAMPLES_PER_ROUND);
    }
    reader.close();
    await stop();

    log(`  growing to ${TOTAL_NODES.toLocaleString('en')} nodes...`);
    const t1 = performance.now();
    builder.build(() => {
      for (let a = 0; builder.count < TOTAL_NODES; a++) {
        const archive = builder.folder(null, `Archive ${String(a + 1).padStart(4, '0')}`);
        for (let i = 0; i < DOCS_PER_ARCHIVE && builder.count < TOTAL_NODES; i++)
          builder.document(archive, FOLDER_CHILDREN + a * DOCS_PER_ARCHIVE + i);
      }
      return '';
    });
    const secondBuildMs = performance.now() - t1;
    log(`  ${builder.count.toLocaleString('en')} nodes after ${(secondBuildMs / 1000).toFixed(1)} s more; start-up, open and RSS...`);
    const dbBytes = fs.statSync(dbFile).size;
    const large = await measureStartup(dataDir, dbFile, owner.access, (s) => (running = s));
    api = running!.api;
    // `large` left the server running: the same listings once more, on 1,000,000 nodes.
    const at1M: string[] = [];
    for (const q of queries) {
      const samples: number[] = [];
      await sampleHttp(api + q.path, token, null, WARMUP_SAMPLES);
      await sampleHttp(api + q.path, token, samples, SAMPLES_AT_1M);
      const s = summarize(samples);
      at1M.push(`${q.name} p50 ${s.p50.toFixed(2)} ms, p99 ${s.p99.toFixed(2)} ms`);
    }
    await stop();

    const hs = summarize(health);
    const rows: Row[] = queries.flatMap((q): Row[] => {
      const h = summarize(q.http);
      const d = summarize(q.sql);
      return [
        {
          figure: `${q.name}, p50`,
          value: h.p50,
          reference: d.p50,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'the same NodesRepo.list query on a read-only better-sqlite3 connection in the bench process, p50',
        },
        {
          figure: `${q.name}, p99`,
          value: h.p99,
          reference: d.p99,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'the same query direct, p99',
        },
        {
          figure: `${q.name}, p50 vs HTTP floor`,
          value: h.p50,
          reference: hs.p50,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'GET /api/v1/healthz on the same server and connection, p50',
        },
      ];
    });
    rows.push(
      {
        figure: `server start to listening, ${(TOTAL_NODES / 1e6).toFixed(0)}M nodes`,
        value: large.startMs,
        reference: small.startMs,
        unit: 'ms',
        better: 'lower',
        referenceIs: `spawn to the "listening on" line with a data dir holding only the owner (median of ${STARTS} starts each)`,
      },
      {
        figure: `openDatabase() (open + migrations check), ${(TOTAL_NODES / 1e6).toFixed(0)}M nodes`,
        value: large.openMs,
        reference: small.openMs,
        unit: 'ms',
        better: 'lower',
        referenceIs: `the same call on the owner-only database (median of ${STARTS}, server stopped)`,
      },
      {
        figure: `server RSS idle after a listing, ${(TOTAL_NODES / 1e6).toFixed(0)}M nodes`,
        value: large.rssMiB,
        reference: small.rssMiB,
        unit: 'MiB',
        better: 'lower',
        referenceIs: `the server on the owner-only data dir after the same gallery listing, idle ${SETTLE_MS / 1000} s as long`,
      },
    );
    return {
      name: 'listing',
      rows,
      notes: [
        `Built ${smallCount.toLocaleString('en')} nodes in ${(firstBuildMs / 1000).toFixed(1)} s, then grew to ${builder.count.toLocaleString('en')} ` +
          `in ${(secondBuildMs / 1000).toFixed(1)} s (one transaction each, a node_versions row per file, no content files); ` +
          `database ${(dbBytes / 2 ** 20).toFixed(0)} MiB.`,
        `${ROUNDS * SAMPLES_PER_ROUND} sequential samples per listing; healthz p50 ${hs.p50.toFixed(2)} ms, p99 ${hs.p99.toFixed(2)} ms.`,
        `Same listings on ${TOTAL_NODES.toLocaleString('en')} nodes (${SAMPLES_AT_1M} samples): ${at1M.join('; ')}.`,
        `Start-up times, ms: owner only ${small.starts.map((m) => m.toFixed(0)).join(', ')}; ${TOTAL_NODES.toLocaleString('en')} nodes ` +
          `${large.starts.map((m) => m.toFixed(0)).join(', ')} (page cache warm; the content reconciliation runs after the listening line).`,
      ],
    };
  } finally {
    agent.destroy();
    await stop();
    await removeTempDir(dataDir);
  }
}

interface Startup {
  starts: number[];
  startMs: number;
  openMs: number;
  rssMiB: number;
}

/**
 * With the server stopped: openDatabase() STARTS times; then STARTS server starts, the last
 * one left running (handed to `keep`) after one gallery listing and SETTLE_MS idle for RSS.
 */
async function measureStartup(dataDir: string, dbFile: string, token: string, keep: (s: SpawnedServer) => void): Promise<Startup> {
  const opens: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t0 = performance.now();
    const db = openDatabase(dbFile);
    opens.push(performance.now() - t0);
    db.close();
  }
  const starts: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const { server, ms } = await startServer(dataDir);
    starts.push(ms);
    if (i < STARTS - 1) {
      await stopChild(server.process);
      continue;
    }
    keep(server);
    const res = await new ApiClient(server.api).get('/nodes?filter=gallery&limit=100', { token });
    if (res.status !== 200) throw new Error(`gallery listing answered ${res.status}`);
    await sleep(SETTLE_MS);
    return { starts, startMs: median(starts), openMs: median(opens), rssMiB: rssKb(server.process.pid!) / 1024 };
  }
  throw new Error('unreachable');
}
