/**
 * Things in a picture (a dog, a boat, a bike), found by @vladmandic/human's bundled CenterNet
 * (COCO's 80 kinds of thing, a 512x512 look at the whole picture) in the same pass and worker as
 * the faces. Only the kinds a family searches for are kept, and only where the model is fairly
 * sure: the labels and the threshold were chosen by looking at what it said of real photos
 * (bench/things.ts and docs/architecture.md say what was seen).
 */

/** Kept with every thing and scan: a new model or a new choice of labels looks at every picture again. */
export const THING_MODEL = 'human-3.3.6/centernet-coco/kept-30';

/**
 * Below this the model mostly guesses: on the face photos of the tests it said "traffic light"
 * 0.30 and "tie" 0.24, on old photographs "horse" 0.45 for a cat; a boat it saw plainly was 0.32.
 */
export const MIN_THING_SCORE = 0.3;

/**
 * The kinds kept. Left out: "person" (nearly every photo; People finds who), and the clutter of a
 * room or a table (chair, cup, bottle, tie, phone, book, clock, tv...), which the model says of
 * many photos with little certainty and a family does not look for.
 */
export const THING_LABELS: ReadonlySet<string> = new Set([
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'umbrella',
  'kite',
  'skis',
  'snowboard',
  'surfboard',
  'skateboard',
  'sports ball',
  'cake',
  'pizza',
  'teddy bear',
]);

export interface FoundThing {
  /** COCO's name for it ("dog", "sports ball"). */
  label: string;
  score: number;
  /** Fractions of the (upright) picture's width and height. */
  x: number;
  y: number;
  w: number;
  h: number;
}

/** What Human says of an object: boxRaw is [x, y, w, h] as fractions of the picture. */
export interface HumanObject {
  label: string;
  score: number;
  boxRaw: [number, number, number, number];
}

/** The things worth keeping, the surest of each kind first. */
export function keptThings(objects: readonly HumanObject[]): FoundThing[] {
  return objects
    .filter((o) => THING_LABELS.has(o.label) && o.score >= MIN_THING_SCORE)
    .sort((a, b) => b.score - a.score)
    .map((o) => {
      const [x, y, w, h] = o.boxRaw.map(clamp) as [number, number, number, number];
      return { label: o.label, score: o.score, x, y, w: Math.min(w, 1 - x), h: Math.min(h, 1 - y) };
    });
}

function clamp(v: number): number {
  return Math.min(1, Math.max(0, v));
}
