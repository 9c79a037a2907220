import fsp from 'node:fs/promises';
import path from 'node:path';
import { setupOwner } from '../server/test/helpers/accounts.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../server/test/helpers/spawn.ts';
import { davOption, driveAuth } from './lib/dav.ts';
import { removeTempDir, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { productionEnv } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { TreeBuilder } from './lib/tree-builder.ts';

/** Each sample is one whole listing; they alternate between the sides, so load hits all alike. */
const SAMPLES = 7;

async function startServer(dataDir: string): Promise<SpawnedServer> {
  const server = await spawnServer(dataDir, productionEnv({ LOG_LEVEL: 'warn' }));
  track(server.process);
  return server;
}

/**
 * PROPFIND Depth 1 of a folder of 10,000 files (`--dav-files=N`), as a drive asks for it when
 * a folder is opened (the properties Finder and davfs2 ask for), the whole 207 body read.
 * The folder's rows are written straight into the database by TreeBuilder (the server stopped),
 * as listing.ts builds its tree. References in the same run: the web app's listing of the same
 * folder over GET /nodes (every page, 1,000 a page, as the drive door reads it), and a plain
 * fs.readdir + stat of as many empty files in a temp folder. Median of SAMPLES each.
 */
export async function benchDavPropfind(): Promise<BenchResult> {
  const files = davOption('files', 10_000);
  const dataDir = await tempDir('hearth-bench-dav-propfind-');
  const plainDir = path.join(dataDir, 'plain');
  let server: SpawnedServer | null = null;
  try {
    server = await startServer(dataDir);
    const owner = await setupOwner(new ApiClient(server.api));
    const auth = await driveAuth(new ApiClient(server.api), owner.access);
    await stopChild(server.process);
    server = null;

    const builder = new TreeBuilder(path.join(dataDir, 'hearth.db'), owner.userId);
    builder.build(() => {
      const folder = builder.folder(null, 'Big folder');
      for (let i = 0; i < files; i++) builder.document(folder, i);
    });
    await fsp.mkdir(plainDir);
    for (let i = 0; i < files; i++) await fsp.writeFile(path.join(plainDir, `file ${i}.txt`), '');
    server = await startServer(dataDir);
    const base = server.api.replace(/\/api\/v1$/, '');
    const folderId = (
      (await new ApiClient(server.api).get('/nodes', { token: owner.access })).body.items as { id: string; name: string }[]
    ).find((n) => n.name === 'Big folder')!.id;

    const body =
      '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/>' +
      '<D:getetag/><D:getlastmodified/><D:displayname/></D:prop></D:propfind>';
    const propfind = async () => {
      const res = await fetch(`${base}/dav/Big%20folder/`, {
        method: 'PROPFIND',
        headers: { Authorization: auth, Depth: '1', 'Content-Type': 'application/xml' },
        body,
      });
      const text = await res.text();
      const count = text.split('<d:response>').length - 1;
      if (res.status !== 207 || count !== files + 1) throw new Error(`PROPFIND answered ${res.status} with ${count} responses`);
    };
    const apiListing = async () => {
      let cursor: string | null = null;
      let count = 0;
      do {
        const query = new URLSearchParams({ parent_id: folderId, limit: '1000' });
        if (cursor) query.set('cursor', cursor);
        const res = await fetch(`${server!.api}/nodes?${query}`, { headers: { Authorization: `Bearer ${owner.access}` } });
        const page = (await res.json()) as { items: unknown[]; next_cursor: string | null };
        count += page.items.length;
        cursor = page.next_cursor;
      } while (cursor);
      if (count !== files) throw new Error(`the API listed ${count} of ${files}`);
    };
    const readdirStat = async () => {
      const names = await fsp.readdir(plainDir);
      await Promise.all(names.map((name) => fsp.stat(path.join(plainDir, name))));
    };

    const sides = { propfind, apiListing, readdirStat };
    const ms: Record<keyof typeof sides, number[]> = { propfind: [], apiListing: [], readdirStat: [] };
    for (const run of Object.values(sides)) await run(); // warm-up
    for (let i = 0; i < SAMPLES; i++) {
      for (const [name, run] of Object.entries(sides) as [keyof typeof sides, () => Promise<void>][]) {
        const t0 = performance.now();
        await run();
        ms[name].push(performance.now() - t0);
      }
    }
    const seconds = (name: keyof typeof sides) => summarize(ms[name]).p50 / 1000;
    log(
      `  PROPFIND ${seconds('propfind').toFixed(3)} s, API ${seconds('apiListing').toFixed(3)} s, readdir+stat ${seconds('readdirStat').toFixed(3)} s`,
    );
    const figure = `dav PROPFIND depth 1, ${files.toLocaleString('en')} files`;
    return {
      name: 'dav propfind',
      rows: [
        {
          figure: `${figure} vs API`,
          value: seconds('propfind'),
          reference: seconds('apiListing'),
          unit: 's',
          better: 'lower',
          referenceIs: `GET /nodes?parent_id= of the same folder, every page of 1,000, bodies parsed (goal: PROPFIND under 0.5 s)`,
        },
        {
          figure: `${figure} vs readdir`,
          value: seconds('propfind'),
          reference: seconds('readdirStat'),
          unit: 's',
          better: 'lower',
          referenceIs: `fs.readdir + fs.stat of ${files.toLocaleString('en')} empty files in a temp folder, in the bench process`,
        },
      ],
      notes: [`PROPFIND asks resourcetype, getcontentlength, getetag, getlastmodified, displayname; median of ${SAMPLES}.`],
    };
  } finally {
    if (server) await stopChild(server.process);
    await removeTempDir(dataDir);
  }
}
