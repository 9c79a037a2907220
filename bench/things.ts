import path from 'node:path';
import sharp from 'sharp';
import { FaceModel, type Looks } from '../server/src/media/face-model.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { twelveMegapixels } from './faces.ts';
import { log, type BenchResult } from './lib/report.ts';

const RUNS = 5;
const FIXTURES = path.join(import.meta.dirname, '../server/test/fixtures/things');

/**
 * Things (issue 33): what looking for things (CenterNet, media/things.ts) adds to the face
 * finder's pass, in CPU time per 12 MP photo, against the face pass alone on the same photo in
 * the same run: a photo with four faces, and a photo of boats with none. And what it saw in the
 * photos of the tests, so the threshold can be judged.
 */
export async function benchThings(): Promise<BenchResult> {
  const work = await tempDir('hearth-bench-things-');
  try {
    const faces = path.join(work, 'faces-12mp.jpg');
    await twelveMegapixels(faces);
    const boats = path.join(work, 'boats-12mp.jpg');
    await sharp(path.join(FIXTURES, 'nagasaki-boats.jpg')).resize(4032, 3024, { fit: 'fill' }).jpeg({ quality: 90 }).toFile(boats);
    const model = await FaceModel.load();
    const facesOnly: Looks = { faces: true, things: false };
    const both: Looks = { faces: true, things: true };
    const seen = await model.look(boats, both);
    const onFaces = { alone: await cpuOf(model, faces, facesOnly), both: await cpuOf(model, faces, both) };
    const onBoats = { alone: await cpuOf(model, boats, facesOnly), both: await cpuOf(model, boats, both) };
    const thingsAlone = await cpuOf(model, boats, { faces: false, things: true });
    const said = (seen.things ?? []).map((t) => `${t.label} ${t.score.toFixed(2)}`).join(', ') || 'nothing';
    log(
      `  things: 4-face photo ${onFaces.alone.toFixed(0)} -> ${onFaces.both.toFixed(0)} ms of CPU; boats ${onBoats.alone.toFixed(0)} -> ${onBoats.both.toFixed(0)} ms; things alone ${thingsAlone.toFixed(0)} ms; kept on the boats: ${said}`,
    );
    return {
      name: 'things',
      rows: [
        {
          figure: 'things: faces + things, CPU per 12 MP photo with 4 faces',
          value: onFaces.both,
          reference: onFaces.alone,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'the face pass alone on the same photo, same process (what faces already cost)',
        },
        {
          figure: 'things: faces + things, CPU per 12 MP photo with no face (boats)',
          value: onBoats.both,
          reference: onBoats.alone,
          unit: 'ms',
          better: 'lower',
          referenceIs: 'the face pass alone on the same photo (finds no face, so little beyond the decode)',
        },
      ],
      notes: [
        `Things: mean of ${RUNS} in this process; @vladmandic/human's CenterNet (COCO, 512x512) on tfjs WebAssembly after the same 1024-px decode as the faces. Things alone (a library already face-scanned): ${thingsAlone.toFixed(0)} ms of CPU per photo, ${((10_000 * thingsAlone) / 3_600_000).toFixed(1)} h for 10,000 photos on one core. Kept on the boats photo: ${said}.`,
      ],
    };
  } finally {
    await removeTempDir(work);
  }
}

/** Mean CPU time (this process, user + system) of one look, after one untimed look. */
async function cpuOf(model: FaceModel, file: string, looks: Looks): Promise<number> {
  await model.look(file, looks);
  const since = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await model.look(file, looks);
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000 / RUNS;
}
