/**
 * The family timeline in the browser: an account's 20,000 photos and 20,000 more shared with it
 * (10,000 in a folder tree another account shares, 4,000 in an album it is in, 6,000 a partner
 * shows from a day on, out of 12,000), opened in Photos under Everyone's. The browser goals are
 * the gallery's (first thumbnails under 1 s, at most 400 img, no task over 100 ms); beside them,
 * what the server spends on the family's months and on a month's page, against the same
 * requests for the account's own 20,000.
 *
 * Seeding: every photo is a clone of the large gallery's real ones (web-gallery.ts), through the
 * server's own store; the shares are made through the API, as the family would.
 */
import type { Browser } from '@playwright/test';
import { createMember, type SignedIn } from '../server/test/helpers/accounts.ts';
import { log, type Row } from './lib/report.ts';
import type { BenchServer } from './lib/server.ts';
import { clone, measure, type Figures } from './web-gallery.ts';

const OWN = 20_000;
const FOLDERS = 10;
const PER_FOLDER = 1_000;
const ALBUM = 4_000;
/** The partner's photos: half before the day they share from, half after. */
const PARTNER = 12_000;
const FIRST = Date.UTC(2020, 0, 1);
const DAY = Date.UTC(2022, 6, 1);
const LAST = Date.UTC(2024, 11, 31, 23);
/** Server figures: the median of this many requests each. */
const REQUESTS = 9;

export interface FamilyFigures {
  rows: Row[];
  notes: string[];
}

/**
 * Seeds a family around a new account of `owner`'s server, every photo a clone of `source`'s
 * real ones, and measures its timeline against `reference` (the 200-photo gallery's figures).
 */
export async function benchFamilyTimeline(
  browser: Browser,
  bench: BenchServer,
  owner: SignedIn,
  source: SignedIn,
  reference: Figures,
): Promise<FamilyFigures> {
  const notes: string[] = [];
  const mum = await createMember(bench.client, owner, 'familygallery');
  const emma = await createMember(bench.client, owner, 'familysharer');
  const dad = await createMember(bench.client, owner, 'familypartner');
  const t0 = performance.now();
  log(
    `  seeding a family timeline of ${OWN.toLocaleString()} own and ${(FOLDERS * PER_FOLDER + ALBUM + PARTNER / 2).toLocaleString()} shared...`,
  );
  await clone(bench, mum, OWN, { from: source, prefix: 'MINE' });
  const tree = await post(bench, emma, '/nodes/folder', { name: 'Family' });
  for (let f = 0; f < FOLDERS; f++) {
    const folder = await post(bench, emma, '/nodes/folder', { name: `Year ${f + 1}`, parent_id: tree.id });
    await clone(bench, emma, PER_FOLDER, { from: source, parentId: folder.id, prefix: `SHARED${f}` });
  }
  await post(bench, emma, `/nodes/${tree.id}/permissions`, { user_id: mum.userId, role: 'viewer' });
  const trip = await post(bench, emma, '/nodes/folder', { name: 'Trip' });
  const inAlbum = await clone(bench, emma, ALBUM, { from: source, parentId: trip.id, prefix: 'ALBUM' });
  const album = await post(bench, emma, '/albums', { name: 'Trip', node_ids: inAlbum.slice(0, 1000) });
  for (let i = 1000; i < inAlbum.length; i += 1000)
    await post(bench, emma, `/albums/${album.id}/items`, { node_ids: inAlbum.slice(i, i + 1000) });
  await post(bench, emma, `/albums/${album.id}/members`, { user_id: mum.userId, role: 'viewer' });
  await clone(bench, dad, PARTNER / 2, { from: source, prefix: 'BEFORE', takenFrom: FIRST, takenTo: DAY - 1 });
  await clone(bench, dad, PARTNER / 2, { from: source, prefix: 'PARTNER', takenFrom: DAY, takenTo: LAST });
  await post(bench, dad, '/partner-shares', { user_id: mum.userId, since: new Date(DAY).toISOString().slice(0, 10) });

  const family = (await get(bench, mum, '/nodes/gallery/months?scope=family')).items as { month: string; photos: number; videos: number }[];
  const total = family.reduce((sum, m) => sum + m.photos + m.videos, 0);
  notes.push(
    `family timeline: ${total.toLocaleString()} photos over ${family.length} months (${OWN.toLocaleString()} own; ${(FOLDERS * PER_FOLDER).toLocaleString()} in a shared folder tree of ${FOLDERS + 1} folders, ${ALBUM.toLocaleString()} in an album, ${(PARTNER / 2).toLocaleString()} of a partner's ${PARTNER.toLocaleString()} from their day), seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  if (total !== OWN + FOLDERS * PER_FOLDER + ALBUM + PARTNER / 2)
    throw new Error(`the family timeline counts ${total}, not the photos seeded`);

  // The server: the family's months and a month's page, against the same for her own photos.
  const months = await timed(bench, mum, '/nodes/gallery/months?scope=family');
  const ownMonths = await timed(bench, mum, '/nodes/gallery/months?scope=mine');
  const middle = family[Math.floor(family.length / 2)]!.month;
  const page = await timed(bench, mum, `/nodes?filter=gallery&scope=family&month=${middle}&limit=500`);
  const ownPage = await timed(bench, mum, `/nodes?filter=gallery&scope=mine&month=${middle}&limit=500`);

  // The browser: Photos opens under Everyone's (the first choice on a device).
  log('  the family timeline in the browser...');
  const figures = await measure(browser, bench, mum, reference.steps);
  notes.push(
    `family timeline: tiles passed while scrolling ${figures.tilesSeen.toLocaleString()}; long tasks over 50 ms ${figures.longTasks}; server times are the median of ${REQUESTS} requests, ${middle}'s page of ${family.find((m) => m.month === middle)!.photos} photos`,
  );
  const ref = 'the same page and measure with a gallery of 200 photos';
  const label = `family timeline ${total.toLocaleString()} (${OWN.toLocaleString()} own + ${(total - OWN).toLocaleString()} shared)`;
  return {
    rows: [
      {
        figure: `${label}: first screen of thumbnails`,
        value: figures.firstThumbsMs,
        reference: reference.firstThumbsMs,
        unit: 'ms',
        better: 'lower',
        referenceIs: ref,
      },
      {
        figure: `${label}: most img in the DOM while scrolling`,
        value: figures.maxImages,
        reference: reference.maxImages,
        unit: 'img',
        better: 'lower',
        referenceIs: ref,
      },
      {
        figure: `${label}: longest task while scrolling`,
        value: figures.longestTaskMs,
        reference: reference.longestTaskMs,
        unit: 'ms',
        better: 'lower',
        referenceIs: ref,
      },
      {
        figure: `${label}: GET months`,
        value: months,
        reference: ownMonths,
        unit: 'ms',
        better: 'lower',
        referenceIs: "GET months of the same account's own 20,000 (scope=mine), same server",
      },
      {
        figure: `${label}: a month's page`,
        value: page,
        reference: ownPage,
        unit: 'ms',
        better: 'lower',
        referenceIs: "the same month's page of the account's own photos",
      },
    ],
    notes,
  };
}

async function post(bench: BenchServer, who: SignedIn, route: string, body: unknown): Promise<any> {
  const res = await bench.client.post(route, body, { token: who.access });
  if (res.status >= 300) throw new Error(`POST ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function get(bench: BenchServer, who: SignedIn, route: string): Promise<any> {
  const res = await bench.client.get(route, { token: who.access });
  if (res.status !== 200) throw new Error(`GET ${route}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** The median time of a request, over REQUESTS after one to warm up. */
async function timed(bench: BenchServer, who: SignedIn, route: string): Promise<number> {
  await get(bench, who, route);
  const times: number[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const started = performance.now();
    await get(bench, who, route);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(REQUESTS / 2)]!;
}
