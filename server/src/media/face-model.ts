/**
 * Faces found in a picture, on the CPU, with nothing fetched from anywhere: @vladmandic/human's
 * own face models (BlazeFace to find, FaceMesh to line each face up, FaceRes to describe it as
 * 1024 numbers) on TensorFlow.js's WebAssembly backend, every file read from node_modules.
 * Measured in bench/faces.ts; why this one is said in docs/architecture.md.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { keptThings, type FoundThing, type HumanObject } from './things.ts';

/** Kept with every face: faces made by another model are found again (their numbers do not compare). */
export const FACE_MODEL = 'human-3.3.6/blazeface-facemesh-faceres/1024';
/** The long edge a picture is looked at: BlazeFace sees 256 px anyway, FaceRes a 224-px crop of each face. */
export const FACE_INPUT_EDGE = 1024;
/** Smaller faces (in the picture looked at) are too few pixels to tell who it is. */
const MIN_FACE_PX = 36;
const MIN_SCORE = 0.6;

/** What to look for in a picture: a picture already looked at for one is not looked at again for it. */
export interface Looks {
  faces: boolean;
  things: boolean;
}

export interface FoundFace {
  /** Fractions of the (upright) picture's width and height. */
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  /** Unit length: the cosine of two faces is their dot product. */
  embedding: Float32Array;
}

/** The little of Human's API used here (its bundled types pull in the whole of tfjs). */
interface HumanLike {
  load(): Promise<void>;
  detect(
    input: unknown,
    config: { face: { enabled: boolean }; object: { enabled: boolean } },
  ): Promise<{ face: { box: [number, number, number, number]; score: number; embedding?: number[] }[]; object: HumanObject[] }>;
  tf: {
    tensor3d(values: Uint8Array, shape: [number, number, number], dtype: 'int32'): { dispose(): void };
    io: { registerLoadRouter(router: (url: string | unknown) => { load(): Promise<unknown> } | null): void };
  };
}

const require = createRequire(import.meta.url);

export class FaceModel {
  private constructor(private readonly human: HumanLike) {}

  /** Loads the models from the installed package (about 0.3 s, 60 MB). */
  static async load(): Promise<FaceModel> {
    // The package's "exports" name its WebAssembly build without "./", which Node refuses: it is
    // found beside the main file instead.
    const dist = path.dirname(require.resolve('@vladmandic/human'));
    const { Human } = require(path.join(dist, 'human.node-wasm.js')) as { Human: new (config: object) => HumanLike };
    const wasmDir = `${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm'))}/`;
    const human = new Human({
      backend: 'wasm',
      wasmPath: wasmDir,
      modelBasePath: `file://${path.resolve(dist, '../models')}/`,
      debug: false,
      // One photo at a time, never a video stream: no frame-to-frame caching or smoothing.
      cacheSensitivity: 0,
      skipAllowed: false,
      filter: { enabled: false },
      body: { enabled: false },
      hand: { enabled: false },
      // CenterNet (things: media/things.ts) is loaded with the faces' models and run when asked.
      object: { enabled: true, minConfidence: 0.2, iouThreshold: 0.4, maxDetected: 20 },
      gesture: { enabled: false },
      segmentation: { enabled: false },
      face: {
        enabled: true,
        detector: { rotation: false, maxDetected: 30, minConfidence: 0.5, return: false },
        mesh: { enabled: true },
        iris: { enabled: false },
        description: { enabled: true },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
      },
    });
    // Without tfjs-node, tfjs reads file:// URLs with fetch, which Node does not do: the
    // model files are read here, so nothing is ever asked of the network.
    human.tf.io.registerLoadRouter((url) => (typeof url === 'string' && url.startsWith('file://') ? fileModel(url.slice(7)) : null));
    await human.load();
    return new FaceModel(human);
  }

  /** The faces in an image file (a photo, or a video's poster), upright as the family sees it. */
  async find(file: string): Promise<FoundFace[]> {
    return (await this.look(file, { faces: true, things: false })).faces ?? [];
  }

  /** The faces and the things of a picture, from one decode; null for what was not asked. */
  async look(file: string, wants: Looks): Promise<{ faces: FoundFace[] | null; things: FoundThing[] | null }> {
    const { data, info } = await sharp(file, { failOn: 'none' })
      .rotate()
      .resize(FACE_INPUT_EDGE, FACE_INPUT_EDGE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const tensor = this.human.tf.tensor3d(new Uint8Array(data.buffer, data.byteOffset, data.length), [info.height, info.width, 3], 'int32');
    try {
      // Human keeps what it is given as its config: both switches are set on every call.
      const result = await this.human.detect(tensor, { face: { enabled: wants.faces }, object: { enabled: wants.things } });
      const things = wants.things ? keptThings(result.object) : null;
      if (!wants.faces) return { faces: null, things };
      const faces = result.face.flatMap((face) => {
        const [x, y, w, h] = face.box;
        if (!face.embedding || face.embedding.length === 0 || face.score < MIN_SCORE) return [];
        if (Math.min(w, h) < MIN_FACE_PX) return [];
        return [
          {
            x: clamp(x / info.width),
            y: clamp(y / info.height),
            w: clamp(w / info.width),
            h: clamp(h / info.height),
            score: face.score,
            embedding: unit(face.embedding),
          },
        ];
      });
      return { faces, things };
    } finally {
      tensor.dispose();
    }
  }
}

/** A tfjs model (model.json and its weight files) read from disk. */
function fileModel(file: string): { load(): Promise<unknown> } {
  return {
    load: async () => {
      const json = JSON.parse(await fs.readFile(file, 'utf8')) as {
        weightsManifest: { paths: string[]; weights: unknown[] }[];
        [key: string]: unknown;
      };
      const parts: Buffer[] = [];
      const weightSpecs: unknown[] = [];
      for (const group of json.weightsManifest) {
        weightSpecs.push(...group.weights);
        for (const part of group.paths) parts.push(await fs.readFile(path.join(path.dirname(file), part)));
      }
      const all = Buffer.concat(parts);
      // FaceRes needs its signature (its outputs by name): every field of model.json goes along.
      const { weightsManifest: _, ...artifacts } = json;
      return { ...artifacts, weightSpecs, weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.length) };
    },
  };
}

export function unit(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (const v of out) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

function clamp(v: number): number {
  return Math.min(1, Math.max(0, v));
}
