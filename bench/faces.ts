import path from 'node:path';
import sharp from 'sharp';
import { FaceModel } from '../server/src/media/face-model.ts';
import { DEFAULT_MEDIA_LIMITS } from '../server/src/media/media-info.ts';
import { processMedia } from '../server/src/media/processor.ts';
import { dot, FaceClusters } from '../server/src/services/photos/face-clusters.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';
import { summarize } from './lib/stats.ts';

const RUNS = 5;
const PEOPLE = 500;
const FACES_PER_PERSON = 20;
const DIM = 1024;
const FIXTURES = path.join(import.meta.dirname, '../server/test/fixtures/faces');

/**
 * Faces (issue 33): detect + embed of a 12 MP photo with four real faces on one core, in this
 * process, through the server's own code (media/face-model.ts), against the grid thumbnail of
 * the same photo (what every upload already costs) in the same run. And grouping 10,000 faces
 * into people one at a time (face-clusters.ts), against one pass of the same faces over the final
 * centroids (the least any nearest-centroid grouping costs).
 */
export async function benchFaces(): Promise<BenchResult> {
  const work = await tempDir('hearth-bench-faces-');
  try {
    const photo = path.join(work, '12mp.jpg');
    await twelveMegapixels(photo);
    const loadStart = performance.now();
    const model = await FaceModel.load();
    const loadMs = performance.now() - loadStart;
    const found = await model.find(photo);
    if (found.length !== 4) throw new Error(`expected 4 faces, found ${found.length}`);
    const faceMs: number[] = [];
    const faceCpu = process.cpuUsage();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await model.find(photo);
      faceMs.push(performance.now() - t0);
    }
    const faceCpuMs = cpuMs(faceCpu) / RUNS;
    const thumbMs: number[] = [];
    const thumbCpu = process.cpuUsage();
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const info = await processMedia(
        photo,
        'image/jpeg',
        { ffmpeg: null, ffprobe: null, heifConvert: null, prlimit: null },
        DEFAULT_MEDIA_LIMITS,
      );
      if (!info.thumbnails) throw new Error(`thumbnail failed: ${info.failure}`);
      thumbMs.push(performance.now() - t0);
    }
    const thumbCpuMs = cpuMs(thumbCpu) / RUNS;
    const faces = summarize(faceMs).p50;
    const thumb = summarize(thumbMs).p50;
    log(
      `  faces: ${faces.toFixed(0)} ms p50 (${(1000 / faces).toFixed(2)} photos/s), ${faceCpuMs.toFixed(0)} ms of CPU each; thumbnail ${thumb.toFixed(0)} ms, ${thumbCpuMs.toFixed(0)} ms of CPU; model load ${loadMs.toFixed(0)} ms`,
    );
    const grouping = clusterTenThousand();
    log(
      `  grouping ${grouping.faces} faces: ${grouping.ms.toFixed(0)} ms (${grouping.cpuMs.toFixed(0)} ms of CPU), ${grouping.perPhotoMs.toFixed(2)} ms per face at the end, ${(grouping.right * 100).toFixed(1)}% right`,
    );
    return {
      name: 'faces',
      rows: [
        {
          figure: 'faces: detect + embed, 12 MP photo with 4 faces, one core',
          value: 1000 / faces,
          reference: 1000 / thumb,
          unit: 'photos/s',
          better: 'higher',
          referenceIs: 'the grid thumbnail (512 px WebP) of the same photo by the media worker code, same process',
        },
        {
          figure: 'faces: CPU time per 12 MP photo (what one core pays, whatever else runs)',
          value: faceCpuMs,
          reference: thumbCpuMs,
          unit: 'ms',
          better: 'lower',
          referenceIs: "the CPU time of the same photo's grid thumbnail (libvips may use more than one thread)",
        },
        {
          figure: `faces: grouping ${grouping.faces} faces into people, one at a time`,
          value: grouping.ms,
          reference: grouping.onePassMs,
          unit: 'ms',
          better: 'lower',
          referenceIs: `one pass of the same faces over the final ${PEOPLE} centroids (no grouping kept)`,
        },
      ],
      notes: [
        `Faces: p50 of ${RUNS}; @vladmandic/human (BlazeFace + FaceMesh + FaceRes) on tfjs WebAssembly, photo decoded by sharp at 1024 px; model load ${loadMs.toFixed(0)} ms once. 10,000 photos at this speed: ${((10_000 * faces) / 3_600_000).toFixed(1)} h on one core.`,
        `Grouping: synthetic FaceRes-like embeddings (${PEOPLE} people x ${FACES_PER_PERSON}); the last face of the run took ${grouping.perPhotoMs.toFixed(2)} ms (goal: one photo's faces under 50 ms); ${(grouping.right * 100).toFixed(1)}% of faces with their person.`,
      ],
    };
  } finally {
    await removeTempDir(work);
  }
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

/** Four real photos of faces, each 2016x1512, side by side: 4032x3024, a phone's 12 MP. */
export async function twelveMegapixels(file: string): Promise<void> {
  const names = ['franck-01829.jpg', 'cage-1.jpg', 'bieber-2.jpg', 'obama.jpg'];
  const tiles = await Promise.all(
    names.map(async (name, i) => ({
      input: await sharp(path.join(FIXTURES, name)).resize(2016, 1512, { fit: 'contain', background: '#777' }).toBuffer(),
      left: (i % 2) * 2016,
      top: Math.floor(i / 2) * 1512,
    })),
  );
  await sharp({ create: { width: 4032, height: 3024, channels: 3, background: '#777' } })
    .composite(tiles)
    .jpeg({ quality: 90 })
    .toFile(file);
}

/** A seeded generator, so each run groups the same faces. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

function unitVector(values: Float32Array): Float32Array {
  const n = Math.sqrt(dot(values, values));
  return values.map((v) => v / n);
}

/**
 * FaceRes embeddings of different people are 0.3-0.55 alike (they share a direction), the same
 * person's 0.67-0.95: made so here, then grouped one face at a time as photos arrive.
 */
function clusterTenThousand(): { faces: number; ms: number; cpuMs: number; perPhotoMs: number; onePassMs: number; right: number } {
  const rand = random(33);
  const common = unitVector(Float32Array.from({ length: DIM }, rand));
  const people = Array.from({ length: PEOPLE }, () => unitVector(common.map((c) => c * 0.65 + rand() * 0.08)));
  const faces: { who: number; e: Float32Array }[] = [];
  for (let f = 0; f < FACES_PER_PERSON; f++) {
    for (let p = 0; p < PEOPLE; p++) faces.push({ who: p, e: unitVector(people[p]!.map((v) => v + rand() * 0.06)) });
  }
  let next = 0;
  const clusters = new FaceClusters();
  const assigned: string[] = [];
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  let lastMs = 0;
  for (const face of faces) {
    const t = performance.now();
    assigned.push(clusters.add(face.e, () => `p${next++}`).id);
    lastMs = performance.now() - t;
  }
  const ms = performance.now() - t0;
  const groupingCpuMs = cpuMs(cpu0);
  const p0 = performance.now();
  for (const face of faces) clusters.nearest(face.e);
  const onePassMs = performance.now() - p0;
  // Right: in the group that holds most of its person's faces, and that group is that person's alone.
  const groupOf = new Map<number, Map<string, number>>();
  faces.forEach((face, i) => {
    const counts = groupOf.get(face.who) ?? new Map<string, number>();
    counts.set(assigned[i]!, (counts.get(assigned[i]!) ?? 0) + 1);
    groupOf.set(face.who, counts);
  });
  let right = 0;
  const taken = new Set<string>();
  for (const counts of groupOf.values()) {
    const [group, n] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
    if (!taken.has(group)) right += n;
    taken.add(group);
  }
  return { faces: faces.length, ms, cpuMs: groupingCpuMs, perPhotoMs: lastMs, onePassMs, right: right / faces.length };
}
