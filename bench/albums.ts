import http from 'node:http';
import path from 'node:path';
import { createMember, setupOwner, type SignedIn } from '../server/test/helpers/accounts.ts';
import { ApiClient } from '../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../server/test/helpers/spawn.ts';
import { timedGet } from './lib/http.ts';
import { removeTempDir, stopChild, tempDir, track } from './lib/proc.ts';
import { log, type BenchResult, type Row } from './lib/report.ts';
import { productionEnv } from './lib/server.ts';
import { summarize } from './lib/stats.ts';
import { TreeBuilder } from './lib/tree-builder.ts';

/** Photos in the big album (every one of the account's). */
const PHOTOS = 5_000;
/** The web app lists an album 500 items a request. */
const PAGE = 500;
/** Albums on the Albums page, and photos in each. */
const ALBUMS = 100;
const PER_ALBUM = 50;
const ROUNDS = 3;
const SAMPLES_PER_ROUND = 40;
const WARMUP = 10;

interface Page {
  items: { id: string }[];
  next_cursor: string | null;
}

/**
 * Albums: a page of an album of PHOTOS photos (its first and its last, through the cursor)
 * against the same page of the account's gallery, which is one range of an index; and the
 * Albums page (ALBUMS albums with their counts, dates and covers) against a folder of as many
 * folders. Data is written straight into the server's database (the server stopped) after the
 * server made the schema and the account.
 */
export async function benchAlbums(): Promise<BenchResult> {
  const dataDir = await tempDir('hearth-bench-albums-');
  const dbFile = path.join(dataDir, 'hearth.db');
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let running: SpawnedServer | null = null;
  const start = async () => {
    running = await spawnServer(dataDir, productionEnv({ LOG_LEVEL: 'warn' }));
    track(running.process);
    return running;
  };
  const stop = async () => {
    if (running) await stopChild(running.process);
    running = null;
  };
  try {
    const client = new ApiClient((await start()).api);
    const owner = await setupOwner(client);
    const keeper = await createMember(client, owner, 'keeper');
    await stop();

    log(`  building ${PHOTOS.toLocaleString('en')} photos, an album of all of them and ${ALBUMS} albums of ${PER_ALBUM}...`);
    const builder = new TreeBuilder(dbFile, keeper.userId);
    const { bigAlbum, folders } = builder.build((db) => {
      const camera = builder.folder(null, 'Camera');
      const photos = Array.from({ length: PHOTOS }, (_, i) => builder.image(camera, i));
      const folderHolder = builder.folder(null, 'Folders');
      for (let i = 0; i < ALBUMS; i++) builder.folder(folderHolder, `Folder ${String(i + 1).padStart(3, '0')}`);
      const now = Date.now();
      const album = db.prepare(
        'INSERT INTO albums (id, owner_id, name, cover_node_id, created_at, updated_at) VALUES (?, ?, ?, NULL, ?, ?)',
      );
      const item = db.prepare('INSERT INTO album_items (album_id, node_id, added_by, added_at) VALUES (?, ?, ?, ?)');
      const big = builder.nextId(now);
      album.run(big, keeper.userId, 'Everything', now, now);
      for (const id of photos) item.run(big, id, keeper.userId, now);
      for (let a = 0; a < ALBUMS; a++) {
        const id = builder.nextId(now);
        album.run(id, keeper.userId, `Album ${a + 1}`, now - a, now - a);
        for (let p = 0; p < PER_ALBUM; p++) item.run(id, photos[(a * 37 + p * 101) % PHOTOS]!, keeper.userId, now);
      }
      return { bigAlbum: big, folders: folderHolder };
    });

    const api = (await start()).api;
    const get = async (url: string, who: SignedIn) => {
      const res = await timedGet(agent, url, who.access);
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${res.body.slice(0, 200)}`);
      return res;
    };
    /** The cursor of the last page of a listing, and how many items the listing held. */
    const lastPage = async (route: string): Promise<{ cursor: string; total: number }> => {
      const cursors: string[] = [];
      let total = 0;
      for (let cursor: string | null = null; ;) {
        const body = JSON.parse((await get(`${api}${route}${cursor ? `&cursor=${cursor}` : ''}`, keeper)).body) as Page;
        total += body.items.length;
        if (!body.next_cursor) break;
        cursor = body.next_cursor;
        cursors.push(cursor);
      }
      return { cursor: cursors[cursors.length - 1]!, total };
    };
    const albumRoute = `/albums/${bigAlbum}/items?limit=${PAGE}`;
    const galleryRoute = `/nodes?filter=gallery&limit=${PAGE}`;
    const albumLast = await lastPage(albumRoute);
    const galleryLast = await lastPage(galleryRoute);
    if (albumLast.total !== PHOTOS || galleryLast.total !== PHOTOS) {
      throw new Error(`listed ${albumLast.total} album items and ${galleryLast.total} gallery items, not ${PHOTOS}`);
    }
    const albums = JSON.parse((await get(`${api}/albums?limit=${ALBUMS}`, keeper)).body) as { items: { photos: number }[] };
    if (albums.items.length !== ALBUMS || albums.items.some((a) => a.photos !== PER_ALBUM && a.photos !== PHOTOS)) {
      throw new Error('the Albums page did not list every album with its count');
    }

    const cases = [
      { name: `album of ${PHOTOS.toLocaleString('en')}: first page of ${PAGE}`, path: albumRoute, ref: galleryRoute },
      {
        name: `album of ${PHOTOS.toLocaleString('en')}: last page (cursor)`,
        path: `${albumRoute}&cursor=${albumLast.cursor}`,
        ref: `${galleryRoute}&cursor=${galleryLast.cursor}`,
      },
      {
        name: `Albums page: ${ALBUMS} albums with counts, dates, covers`,
        path: `/albums?limit=${ALBUMS}`,
        ref: `/nodes?parent_id=${folders}&limit=${ALBUMS}`,
      },
    ].map((c) => ({ ...c, server: [] as number[], reference: [] as number[] }));
    for (const c of cases) {
      for (let i = 0; i < WARMUP; i++) {
        await get(api + c.path, keeper);
        await get(api + c.ref, keeper);
      }
    }
    for (let round = 1; round <= ROUNDS; round++) {
      log(`  round ${round}/${ROUNDS}: ${SAMPLES_PER_ROUND} requests per case and reference`);
      for (const c of cases) {
        for (let i = 0; i < SAMPLES_PER_ROUND; i++) {
          c.server.push((await get(api + c.path, keeper)).ms);
          c.reference.push((await get(api + c.ref, keeper)).ms);
        }
      }
    }
    await stop();

    const rows: Row[] = cases.flatMap((c) => {
      const s = summarize(c.server);
      const r = summarize(c.reference);
      const referenceIs = c.path.startsWith('/albums?')
        ? `GET /nodes?parent_id={a folder of ${ALBUMS} folders}&limit=${ALBUMS}, same account and connection`
        : `the same page of the account's gallery (filter=gallery, one index range), same account and connection`;
      return [
        {
          figure: `${c.name}, p50`,
          value: s.p50,
          reference: r.p50,
          unit: 'ms',
          better: 'lower' as const,
          referenceIs: `${referenceIs}, p50`,
        },
        {
          figure: `${c.name}, p99`,
          value: s.p99,
          reference: r.p99,
          unit: 'ms',
          better: 'lower' as const,
          referenceIs: `${referenceIs}, p99`,
        },
      ];
    });
    return {
      name: 'albums',
      rows,
      notes: [
        `${ROUNDS * SAMPLES_PER_ROUND} samples per figure, server and reference alternating; ${PHOTOS.toLocaleString('en')} photos taken over ten years`,
        'An album page joins its items to their nodes and sorts them by taken time: it reads every item of the album whatever the page (the items carry no taken time of their own, which would have to follow each photo as its capture time is read)',
      ],
    };
  } finally {
    agent.destroy();
    await stop();
    await removeTempDir(dataDir);
  }
}
