import http from 'node:http';
import path from 'node:path';
import { openConnection, type Db, type Statement } from '../server/src/store/database/db.ts';
import { AccessService } from '../server/src/services/files/access.ts';
import type { Actor, ServiceDeps } from '../server/src/services/common/context.ts';
import { createStore } from '../server/src/store/index.ts';
import { NodesRepo, type Keyset, type ListQuery } from '../server/src/store/database/nodes.repo.ts';
import { usernameKey } from '../server/src/store/database/users.repo.ts';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../server/test/helpers/spawn.ts';
import { timedGet } from './lib/http.ts';
import { removeTempDir, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { productionEnv } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { TreeBuilder } from './lib/tree-builder.ts';

/** Folders above the file of the deep access check. */
const DEPTH = 30;
/** Accounts besides the grantee holding a grant on the top folder of the crowded chain. */
const CROWD = 20;
/** Other owners whose nodes are granted to the listing account, and their tree sizes. */
const OTHER_OWNERS = 5;
const TOP_FOLDERS_PER_OWNER = 100;
const DOCS_PER_FOLDER = 199;
/** Per other owner: grants on its top-level folders, then on files inside them. */
const FOLDER_GRANTS_PER_OWNER = 40;
const FILE_GRANTS_PER_OWNER = 160;
const GRANTS = OTHER_OWNERS * (FOLDER_GRANTS_PER_OWNER + FILE_GRANTS_PER_OWNER);
const OWN_FOLDERS = 20;
const OWN_CHILDREN = 20;
const PAGE = 100;
const DEEP_PAGE = 8;
/** Server and reference samples alternate in rounds, so a change in machine load hits both alike. */
const ROUNDS = 3;
const HTTP_SAMPLES_PER_ROUND = 200;
const DIRECT_SAMPLES_PER_ROUND = 2_000;
const WARMUP_SAMPLES = 50;
const LISTING_HTTP_SAMPLES_PER_ROUND = 100;
const LISTING_DIRECT_SAMPLES_PER_ROUND = 100;

/** One chain of the access check: the file at the bottom and where the grantee's grant sits. */
interface Chain {
  name: string;
  depth: number;
  /** 1-based level of the granted folder (1 = the top). */
  grantAt: number;
  crowd: boolean;
  fileId: string;
  http: { grantee: number[]; owner: number[] };
  direct: { check: number[]; byId: number[]; inherited: number[] };
}

interface Page {
  items: { id: string; shared: boolean }[];
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

const us = (ms: number) => ms * 1000;

/**
 * Sharing: the cost of the one access check (AccessService.node) on a node DEPTH folders
 * deep whose grant sits at the top, and of the blended `parent_id=root` listing of an account
 * with GRANTS direct grants.
 *
 * Data is written straight into the server's database (TreeBuilder, the server stopped) after
 * the server made the schema and three real accounts (owner, grantee, listing account); other
 * owners and the crowd of grantees are plain rows in users. Chains owned by the owner: DEPTH
 * folders with a file at the bottom, granted (viewer) to the grantee on the top folder, on the
 * middle one, on the top one with CROWD other accounts granted there too, and a 1-folder chain.
 *
 * Access check: GET /nodes/{file} over HTTP as the grantee (the check walks the chain) against
 * the same request as the owner (no walk); in process on a read-only connection,
 * AccessService.node() against NodesRepo.byId() (the primary-key lookup the check starts with).
 * Listing: first page and page DEEP_PAGE of `parent_id=root` against a listing of one of the
 * account's own folders of OWN_CHILDREN children; the root query's plan, and the same page
 * as a UNION ALL of two ranges run in the bench process against the server's query.
 */
export async function benchSharing(): Promise<BenchResult> {
  const dataDir = await tempDir('hearth-bench-sharing-');
  const dbFile = path.join(dataDir, 'hearth.db');
  let running: SpawnedServer | null = null;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const start = async () => {
    running = await spawnServer(dataDir, productionEnv({ LOG_LEVEL: 'warn' }));
    track(running.process);
    return running;
  };
  const stop = async () => {
    if (running) await stopChild(running.process);
    running = null;
  };
  let reader: Db | null = null;
  try {
    const client = new ApiClient((await start()).api);
    const owner = await setupOwner(client);
    const grantee = await createMember(client, owner, 'grantee');
    const lister = await createMember(client, owner, 'lister');
    await stop();

    log(
      `  building ${DEPTH}-deep chains and ${GRANTS.toLocaleString('en')} grants over ${(OTHER_OWNERS * TOP_FOLDERS_PER_OWNER * (1 + DOCS_PER_FOLDER)).toLocaleString('en')} nodes of ${OTHER_OWNERS} other owners...`,
    );
    const t0 = performance.now();
    const builder = new TreeBuilder(dbFile, owner.userId);
    const chains: Chain[] = [
      { name: `depth ${DEPTH}, grant on the top folder`, depth: DEPTH, grantAt: 1, crowd: false },
      { name: `depth ${DEPTH}, grant on folder ${DEPTH / 2}`, depth: DEPTH, grantAt: DEPTH / 2, crowd: false },
      { name: `depth ${DEPTH}, grant on the top + ${CROWD} other accounts there`, depth: DEPTH, grantAt: 1, crowd: true },
      { name: 'depth 1, grant on the folder', depth: 1, grantAt: 1, crowd: false },
    ].map((c) => ({ ...c, fileId: '', http: { grantee: [], owner: [] }, direct: { check: [], byId: [], inherited: [] } }));
    const ownFolder = builder.build((db) => {
      const now = Date.now();
      const user = db.prepare(`INSERT INTO users (id, username, username_key, role, password_hash, avatar_seed, created_at, updated_at)
        VALUES (?, ?, ?, 'member', 'no-sign-in', ?, ?, ?)`);
      const addUser = (name: string) => {
        const id = builder.nextId();
        user.run(id, name, usernameKey(name), id, now, now);
        return id;
      };
      const grant = db.prepare("INSERT INTO permissions (node_id, user_id, role, granted_by, created_at) VALUES (?, ?, 'viewer', ?, ?)");
      const crowd = Array.from({ length: CROWD }, (_, i) => addUser(`crowd${i + 1}`));
      for (const [c, chain] of chains.entries()) {
        builder.ownerId = owner.userId;
        let parent: string | null = null;
        for (let level = 1; level <= chain.depth; level++) {
          parent = builder.folder(parent, level === 1 ? `Chain ${c + 1}` : `Level ${level}`);
          if (level === chain.grantAt) grant.run(parent, grantee.userId, owner.userId, now);
          if (level === 1 && chain.crowd) for (const u of crowd) grant.run(parent, u, owner.userId, now);
        }
        chain.fileId = builder.document(parent!, 0);
      }
      for (let o = 0; o < OTHER_OWNERS; o++) {
        const other = addUser(`relative${o + 1}`);
        builder.ownerId = other;
        for (let f = 0; f < TOP_FOLDERS_PER_OWNER; f++) {
          const folder = builder.folder(null, `Family ${String(f + 1).padStart(3, '0')}`);
          const docs = Array.from({ length: DOCS_PER_FOLDER }, (_, i) => builder.document(folder, i));
          if (f < FOLDER_GRANTS_PER_OWNER) grant.run(folder, lister.userId, other, now);
          // The file grants spread over the folders not granted whole.
          const filesHere = FILE_GRANTS_PER_OWNER / (TOP_FOLDERS_PER_OWNER - FOLDER_GRANTS_PER_OWNER);
          if (f >= FOLDER_GRANTS_PER_OWNER) {
            const from = Math.round((f - FOLDER_GRANTS_PER_OWNER) * filesHere);
            const to = Math.round((f - FOLDER_GRANTS_PER_OWNER + 1) * filesHere);
            for (let i = from; i < to; i++) grant.run(docs[(i * 7) % DOCS_PER_FOLDER]!, lister.userId, other, now);
          }
        }
      }
      builder.ownerId = lister.userId;
      const own = Array.from({ length: OWN_FOLDERS }, (_, i) => builder.folder(null, `Mine ${String(i + 1).padStart(2, '0')}`));
      for (let i = 0; i < OWN_CHILDREN; i++) builder.document(own[0]!, i);
      return own[0]!;
    });
    const buildMs = performance.now() - t0;
    log(`  built ${builder.count.toLocaleString('en')} nodes in ${(buildMs / 1000).toFixed(1)} s`);

    const api = (await start()).api;
    reader = openConnection(dbFile, { readonly: true });
    const store = createStore(reader);
    // The check reads nothing but the store.
    const access = new AccessService({ store } as ServiceDeps);
    const actor: Actor = { userId: grantee.userId, sessionId: 'bench', role: 'member', scope: 'full', mustChangePassword: false };

    const get = async (url: string, who: SignedIn) => {
      const res = await timedGet(agent, url, who.access);
      if (res.status !== 200) throw new Error(`GET ${url} as ${who.username} answered ${res.status}: ${res.body.slice(0, 200)}`);
      return res;
    };
    const sampleHttp = async (url: string, who: SignedIn, into: number[] | null, count: number) => {
      for (let i = 0; i < count; i++) into?.push((await get(url, who)).ms);
    };
    const sampleDirect = (work: () => unknown, into: number[] | null, count: number) => {
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        work();
        into?.push(performance.now() - t);
      }
    };

    // Every chain answers the grantee, through the grant where it was put.
    for (const chain of chains) {
      const grants = store.permissions.inherited(chain.fileId, grantee.userId);
      const body = JSON.parse((await get(`${api}/nodes/${chain.fileId}`, grantee)).body) as { id: string };
      if (body.id !== chain.fileId || grants.length !== 1 || grants[0]!.depth !== chain.depth + 1 - chain.grantAt) {
        throw new Error(`${chain.name}: grantee got ${body.id}, grants ${JSON.stringify(grants)}`);
      }
      access.node(actor, chain.fileId, 'read');
    }

    // The listing account's root: its own folders and every grant, each exactly once.
    const rootPath = `/nodes?parent_id=root&limit=${PAGE}`;
    const seen = new Set<string>();
    let cursor: string | null = null;
    let deepCursor: string | null = null;
    for (let page = 1; page <= Math.ceil((OWN_FOLDERS + GRANTS) / PAGE) + 1; page++) {
      const res = await get(`${api}${rootPath}${cursor ? `&cursor=${cursor}` : ''}`, lister);
      const body = JSON.parse(res.body) as Page;
      for (const item of body.items) seen.add(item.id);
      cursor = body.next_cursor;
      if (page === DEEP_PAGE - 1) deepCursor = cursor;
      if (!cursor) break;
    }
    if (seen.size !== OWN_FOLDERS + GRANTS || !deepCursor)
      throw new Error(`root listing walked ${seen.size} items, not ${OWN_FOLDERS + GRANTS}`);
    const own = JSON.parse((await get(`${api}/nodes?parent_id=${ownFolder}&limit=${PAGE}`, lister)).body) as Page;
    if (own.items.length !== OWN_CHILDREN) throw new Error(`own folder listed ${own.items.length} items`);

    const listings = [
      {
        name: `parent_id=root first page (${OWN_FOLDERS} own + ${GRANTS.toLocaleString('en')} grants)`,
        path: rootPath,
        after: null as Keyset | null,
        http: [] as number[],
      },
      {
        name: `parent_id=root page ${DEEP_PAGE} (keyset cursor)`,
        path: `${rootPath}&cursor=${deepCursor}`,
        after: keysetOf(deepCursor),
        http: [] as number[],
      },
    ];
    const ownListing = { path: `/nodes?parent_id=${ownFolder}&limit=${PAGE}`, http: [] as number[] };

    // The server's root query as it runs (SQL and parameters caught on their way to prepare),
    // its plan, and the alternative shape on the same connection.
    const direct = listings.map((l) => {
      const query: ListQuery = {
        scope: { kind: 'root', userId: lister.userId },
        search: null,
        sort: 'name',
        desc: false,
        foldersFirst: true,
        after: l.after,
        limit: PAGE + 1,
        viewerId: lister.userId,
      };
      const caught = catchQueries(reader!, query);
      const plans = caught.map((c) => planOf(reader!, c.sql, c.params));
      return { query, plans, caught, sql: [] as number[], union: [] as number[], ordered: [] as number[] };
    });

    for (const chain of chains) {
      await sampleHttp(`${api}/nodes/${chain.fileId}`, grantee, null, WARMUP_SAMPLES);
      await sampleHttp(`${api}/nodes/${chain.fileId}`, owner, null, WARMUP_SAMPLES);
      sampleDirect(() => access.node(actor, chain.fileId, 'read'), null, WARMUP_SAMPLES * 10);
      sampleDirect(() => store.nodes.byId(chain.fileId, actor.userId), null, WARMUP_SAMPLES * 10);
    }
    for (const l of listings) await sampleHttp(api + l.path, lister, null, WARMUP_SAMPLES);
    await sampleHttp(api + ownListing.path, lister, null, WARMUP_SAMPLES);
    for (let round = 1; round <= ROUNDS; round++) {
      log(
        `  round ${round}/${ROUNDS}: ${HTTP_SAMPLES_PER_ROUND} requests per case over HTTP, ${DIRECT_SAMPLES_PER_ROUND} direct calls per case`,
      );
      for (const chain of chains) {
        const url = `${api}/nodes/${chain.fileId}`;
        await sampleHttp(url, grantee, chain.http.grantee, HTTP_SAMPLES_PER_ROUND);
        await sampleHttp(url, owner, chain.http.owner, HTTP_SAMPLES_PER_ROUND);
        sampleDirect(() => access.node(actor, chain.fileId, 'read'), chain.direct.check, DIRECT_SAMPLES_PER_ROUND);
        sampleDirect(() => store.nodes.byId(chain.fileId, actor.userId), chain.direct.byId, DIRECT_SAMPLES_PER_ROUND);
        sampleDirect(() => store.permissions.inherited(chain.fileId, actor.userId), chain.direct.inherited, DIRECT_SAMPLES_PER_ROUND);
      }
      for (const l of listings) await sampleHttp(api + l.path, lister, l.http, LISTING_HTTP_SAMPLES_PER_ROUND);
      await sampleHttp(api + ownListing.path, lister, ownListing.http, LISTING_HTTP_SAMPLES_PER_ROUND);
    }
    reader.close();
    reader = null;
    await stop();

    // The root query against two other shapes on one connection to the stopped server's
    // database, which gets the table the second shape reads (the bench's copy only).
    log(`  root query shapes in process: ${LISTING_DIRECT_SAMPLES_PER_ROUND} calls per shape and page, ${ROUNDS} rounds`);
    const rw = openConnection(dbFile);
    try {
      rw.exec(`CREATE TABLE bench_grant_order AS
          SELECT p.user_id, n.in_trash, n.kind_rank, n.sort_name, n.id AS node_id FROM permissions p JOIN nodes n ON n.id = p.node_id;
        CREATE INDEX bench_grant_order_page ON bench_grant_order(user_id, in_trash, kind_rank, sort_name, node_id);`);
      const repo = new NodesRepo(rw);
      const shapes = direct.map((d) => {
        const union = runnerOf(rw, d.caught, 'union');
        const ordered = runnerOf(rw, d.caught, 'ordered');
        const expected = repo
          .list(d.query)
          .map((r) => r.id)
          .join();
        if (
          union()
            .map((r) => r.id)
            .join() !== expected ||
          ordered()
            .map((r) => r.id)
            .join() !== expected
        ) {
          throw new Error("an alternative shape of the root query gave other rows than the server's query");
        }
        return { d, union, ordered };
      });
      for (let round = 1; round <= ROUNDS; round++) {
        for (const { d, union, ordered } of shapes) {
          sampleDirect(() => repo.list(d.query), d.sql, LISTING_DIRECT_SAMPLES_PER_ROUND);
          sampleDirect(union, d.union, LISTING_DIRECT_SAMPLES_PER_ROUND);
          sampleDirect(ordered, d.ordered, LISTING_DIRECT_SAMPLES_PER_ROUND);
        }
      }
    } finally {
      rw.close();
    }

    const rows: Row[] = [];
    for (const chain of chains) {
      const g = summarize(chain.http.grantee);
      const o = summarize(chain.http.owner);
      const c = summarize(chain.direct.check);
      const b = summarize(chain.direct.byId);
      const ref = 'GET /nodes/{same file} as its owner (no walk), same server and connection';
      const refDirect = 'NodesRepo.byId(same file) on the same connection (one primary-key lookup)';
      rows.push(
        {
          figure: `access ${chain.name}: GET /nodes/{file} as grantee, p50`,
          value: g.p50,
          reference: o.p50,
          unit: 'ms',
          better: 'lower',
          referenceIs: `${ref}, p50`,
        },
        {
          figure: `access ${chain.name}: GET /nodes/{file} as grantee, p99`,
          value: g.p99,
          reference: o.p99,
          unit: 'ms',
          better: 'lower',
          referenceIs: `${ref}, p99`,
        },
        {
          figure: `access ${chain.name}: AccessService.node() in process, p50`,
          value: us(c.p50),
          reference: us(b.p50),
          unit: 'µs',
          better: 'lower',
          referenceIs: `${refDirect}, p50`,
        },
        {
          figure: `access ${chain.name}: AccessService.node() in process, p99`,
          value: us(c.p99),
          reference: us(b.p99),
          unit: 'µs',
          better: 'lower',
          referenceIs: `${refDirect}, p99`,
        },
      );
    }
    const ownS = summarize(ownListing.http);
    const ownRef = `GET /nodes?parent_id={own folder of ${OWN_CHILDREN}}&limit=${PAGE} as the same account, same connection`;
    for (const [i, l] of listings.entries()) {
      const s = summarize(l.http);
      const d = direct[i]!;
      const q = summarize(d.sql);
      const u = summarize(d.union);
      const o = summarize(d.ordered);
      rows.push(
        { figure: `${l.name}, p50`, value: s.p50, reference: ownS.p50, unit: 'ms', better: 'lower', referenceIs: `${ownRef}, p50` },
        { figure: `${l.name}, p99`, value: s.p99, reference: ownS.p99, unit: 'ms', better: 'lower', referenceIs: `${ownRef}, p99` },
        {
          figure: `${l.name}: server's query direct vs UNION ALL shape, p50`,
          value: us(q.p50),
          reference: us(u.p50),
          unit: 'µs',
          better: 'lower',
          referenceIs:
            'the same page as a UNION ALL of an own-range scan (nodes_by_name) and the grants (permissions_user), in process, p50',
        },
        {
          figure: `${l.name}: server's query direct vs ordered grant index, p50`,
          value: us(q.p50),
          reference: us(o.p50),
          unit: 'µs',
          better: 'lower',
          referenceIs:
            'the same page as a UNION ALL of the own range and a range of an index (user_id, in_trash, kind_rank, sort_name, node_id) over a ' +
            'copy of the grants with their sort keys (added to the bench copy only), each limited to the page, in process, p50',
        },
      );
    }
    const chainNotes = chains.map((c) => {
      const s = summarize(c.direct.inherited);
      return `${c.name}: PermissionsRepo.inherited() alone p50 ${us(s.p50).toFixed(1)} µs, p99 ${us(s.p99).toFixed(1)} µs`;
    });
    const planNotes = direct.flatMap((d, i) =>
      d.plans.map(
        (plan, k) => `plan of ${listings[i]!.name}, ${d.caught[k]!.params.only_kind === 0 ? 'folders' : 'files'} part: ${plan.join(' | ')}`,
      ),
    );
    const sorts = direct.some((d) => d.plans.some((p) => p.some((line) => line.includes('TEMP B-TREE'))));
    const scans = direct.some((d) => d.plans.some((p) => p.some((line) => /^SCAN n\b/.test(line.trim()))));
    return {
      name: 'sharing',
      rows,
      notes: [
        `Built ${builder.count.toLocaleString('en')} nodes in ${(buildMs / 1000).toFixed(1)} s: ${chains.length} chains of the owner, ` +
          `${OTHER_OWNERS} other owners x ${TOP_FOLDERS_PER_OWNER} folders x ${DOCS_PER_FOLDER} documents, ${GRANTS.toLocaleString('en')} grants to the ` +
          `listing account (${OTHER_OWNERS * FOLDER_GRANTS_PER_OWNER} folders, ${OTHER_OWNERS * FILE_GRANTS_PER_OWNER} files), ${OWN_FOLDERS} folders of its own.`,
        `${ROUNDS * HTTP_SAMPLES_PER_ROUND} sequential HTTP samples per access case and ${ROUNDS * LISTING_HTTP_SAMPLES_PER_ROUND} per listing on one keep-alive connection, ${ROUNDS * DIRECT_SAMPLES_PER_ROUND} direct calls per access case, ` +
          `${ROUNDS * LISTING_DIRECT_SAMPLES_PER_ROUND} per listing shape; the grantee holds one grant per chain (viewer).`,
        ...chainNotes,
        `root listing plan: ${sorts ? 'sorts in a temp B-tree' : 'no temp B-tree sort'}; ${scans ? 'a full scan of nodes' : 'no full scan of nodes'}.`,
        ...planNotes,
      ],
    };
  } finally {
    reader?.close();
    agent.destroy();
    await stop();
    await removeTempDir(dataDir);
  }
}

interface Caught {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * The statements NodesRepo.list prepares for `query` and the parameters it runs them with:
 * the repo is handed a stand-in whose prepare() records both before delegating.
 */
function catchQueries(db: Db, query: ListQuery): Caught[] {
  const caught: Caught[] = [];
  const recording = (prepare: (sql: string) => Statement) => (sql: string) => {
    const stmt = prepare(sql);
    return {
      all(params: Record<string, unknown>) {
        if (sql.includes('@scope_user')) caught.push({ sql, params });
        return stmt.all(params);
      },
    };
  };
  const spy = { prepare: recording((sql) => db.prepare(sql)), prepareRaw: recording((sql) => db.prepareRaw(sql)) } as unknown as Db;
  new NodesRepo(spy).list(query);
  if (caught.length === 0) throw new Error('the root listing ran no query');
  return caught;
}

function planOf(db: Db, sql: string, params: Record<string, unknown>): string[] {
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map((r) => r.detail);
}

/**
 * Another shape of the root query, run part by part as NodesRepo.list runs it (folders, then
 * files, until the page is full), from the server's own SQL of each part:
 * - `union`: the account's own top level as one range of nodes_by_name (ordered, stops at the
 *   limit) UNION ALL its grants through permissions_user, each limited, merged;
 * - `ordered`: the same, the grants half read from bench_grant_order, the grants with the
 *   node's in_trash, kind_rank and sort_name, through an index in page order: a range that
 *   stops at the limit, then a primary-key lookup per row of the page.
 * Own and granted sets never overlap (a grant is never to the node's owner), so UNION ALL
 * loses nothing the OR-form deduplicates.
 */
function runnerOf(db: Db, caught: Caught[], shape: 'union' | 'ordered'): () => { id: string }[] {
  const parts = caught.map((c) => ({ stmt: db.prepare(alternativeOf(c.sql, c.params, shape)), params: c.params }));
  return () => {
    const rows: { id: string }[] = [];
    for (const part of parts) {
      rows.push(...(part.stmt.all({ ...part.params, limit: PAGE + 1 - rows.length }) as { id: string }[]));
      if (rows.length >= PAGE + 1) break;
    }
    return rows;
  };
}

function alternativeOf(sql: string, params: Record<string, unknown>, shape: 'union' | 'ordered'): string {
  const or = '(n.container = @container OR n.id IN (SELECT node_id FROM permissions WHERE user_id = @scope_user))';
  if (!sql.includes(or) || params.only_kind === undefined || !sql.includes('ORDER BY n.sort_name ASC, n.id ASC LIMIT @limit')) {
    throw new Error(`the root query changed shape:\n${sql}`);
  }
  const [head] = sql.split(' ORDER BY n.sort_name ASC, n.id ASC LIMIT @limit') as [string];
  const orderBy = 'n.sort_name ASC, n.id ASC';
  const own = head.replace(or, 'n.container = @container');
  const after =
    params.after_value === undefined ? '' : 'AND (g.sort_name > @after_value OR (g.sort_name = @after_value AND g.node_id > @after_id))';
  const grants =
    shape === 'union'
      ? 'FROM permissions p JOIN nodes n ON n.id = p.node_id WHERE p.user_id = @scope_user AND'
      : `FROM (SELECT g.node_id FROM bench_grant_order g WHERE g.user_id = @scope_user AND g.in_trash = 0 AND g.kind_rank = @only_kind ${after}
          ORDER BY g.sort_name, g.node_id LIMIT @limit) k JOIN nodes n ON n.id = k.node_id WHERE`;
  const granted = head.replace('FROM nodes n WHERE', grants).replace(`${or} AND `, '');
  return `SELECT * FROM (${own} ORDER BY ${orderBy} LIMIT @limit)
    UNION ALL SELECT * FROM (${granted} ORDER BY ${orderBy} LIMIT @limit)
    ORDER BY sort_value ASC, id ASC LIMIT @limit`;
}
