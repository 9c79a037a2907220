/**
 * Faces grouped into people, one face at a time: a face joins the person whose centroid (the
 * direction of the sum of its faces) it is most like, if that is alike enough, else it starts a
 * person of its own. Adding a face is one pass over the account's people (n x 1024 multiply-adds),
 * so a photo arriving costs milliseconds, never a re-clustering of the library.
 */

/**
 * Cosine above which two faces are the same person, for FaceRes embeddings. On the labelled set
 * in server/test/fixtures/faces the same person's faces were 0.67-0.95 alike and different
 * people's at most 0.54.
 */
export const SAME_PERSON = 0.6;

export interface Assignment {
  /** Index of the person it joins, or -1 for a new one. */
  index: number;
  similarity: number;
}

export class FaceClusters {
  readonly ids: string[] = [];
  private readonly sums: Float32Array[] = [];
  /** Every centroid end to end in one array: one sequential walk per face, kind to the cache. */
  private centroids = new Float32Array(0);
  private dim = 0;
  /** Each centroid's likeness to the face being placed, reused from face to face. */
  private scores = new Float64Array(0);

  constructor(people: readonly { id: string; sum: Float32Array }[] = []) {
    for (const p of people) this.addPerson(p.id, p.sum);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The person a face is most like, if alike enough; `except` is a person it was moved out of. */
  nearest(embedding: Float32Array, except: string | null = null): Assignment {
    const skip = except === null ? -1 : this.ids.indexOf(except);
    const count = this.ids.length;
    const dim = this.dim;
    const all = this.centroids;
    const scores = this.scoresFor(count);
    // Four centroids per walk along the face: each of its values is read once for four products.
    let p = 0;
    for (; p + 7 < count; p += 8) dot8(all, p * dim, embedding, dim, scores, p);
    for (; p + 3 < count; p += 4) dot4(all, p * dim, embedding, dim, scores, p);
    for (; p < count; p++) scores[p] = dotAt(all, p * dim, embedding, dim);
    let best = -1;
    let bestSimilarity = -Infinity;
    for (let q = 0; q < count; q++) {
      if (q === skip) continue;
      if (scores[q]! > bestSimilarity) {
        bestSimilarity = scores[q]!;
        best = q;
      }
    }
    return bestSimilarity >= SAME_PERSON ? { index: best, similarity: bestSimilarity } : { index: -1, similarity: bestSimilarity };
  }

  private scoresFor(count: number): Float64Array {
    if (this.scores.length < count) this.scores = new Float64Array(Math.max(64, count * 2));
    return this.scores;
  }

  /** Puts a face with its person (a new one named by `newId` when none is alike); returns the person's id and sum. */
  add(embedding: Float32Array, newId: () => string): { id: string; sum: Float32Array; created: boolean } {
    const { index } = this.nearest(embedding);
    if (index === -1) {
      const id = newId();
      const sum = Float32Array.from(embedding);
      this.addPerson(id, sum);
      return { id, sum, created: true };
    }
    const sum = this.sums[index]!;
    for (let i = 0; i < sum.length; i++) sum[i]! += embedding[i]!;
    this.centroids.set(unitOf(sum), index * this.dim);
    return { id: this.ids[index]!, sum, created: false };
  }

  private addPerson(id: string, sum: Float32Array): void {
    if (this.dim === 0) this.dim = sum.length;
    // A person with no faces left (or a sum of another length) compares as nothing.
    const centroid = sum.length === this.dim ? unitOf(sum) : new Float32Array(this.dim);
    const at = this.ids.length * this.dim;
    if (at + this.dim > this.centroids.length) {
      const grown = new Float32Array(Math.max(this.dim * 64, this.centroids.length * 2));
      grown.set(this.centroids);
      this.centroids = grown;
    }
    this.centroids.set(centroid, at);
    this.ids.push(id);
    this.sums.push(sum);
  }
}

function dot8(all: Float32Array, at: number, e: Float32Array, dim: number, out: Float64Array, to: number): void {
  const a1 = at + dim,
    a2 = a1 + dim,
    a3 = a2 + dim,
    a4 = a3 + dim,
    a5 = a4 + dim,
    a6 = a5 + dim,
    a7 = a6 + dim;
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0,
    s4 = 0,
    s5 = 0,
    s6 = 0,
    s7 = 0;
  for (let i = 0; i < dim; i++) {
    const v = e[i]!;
    s0 += all[at + i]! * v;
    s1 += all[a1 + i]! * v;
    s2 += all[a2 + i]! * v;
    s3 += all[a3 + i]! * v;
    s4 += all[a4 + i]! * v;
    s5 += all[a5 + i]! * v;
    s6 += all[a6 + i]! * v;
    s7 += all[a7 + i]! * v;
  }
  out[to] = s0;
  out[to + 1] = s1;
  out[to + 2] = s2;
  out[to + 3] = s3;
  out[to + 4] = s4;
  out[to + 5] = s5;
  out[to + 6] = s6;
  out[to + 7] = s7;
}

/** Four centroids (from `at` in `all`) times a face, into `out` from `to`. */
function dot4(all: Float32Array, at: number, e: Float32Array, dim: number, out: Float64Array, to: number): void {
  const b = at + dim;
  const c = b + dim;
  const d = c + dim;
  let sa = 0;
  let sb = 0;
  let sc = 0;
  let sd = 0;
  for (let i = 0; i < dim; i++) {
    const v = e[i]!;
    sa += all[at + i]! * v;
    sb += all[b + i]! * v;
    sc += all[c + i]! * v;
    sd += all[d + i]! * v;
  }
  out[to] = sa;
  out[to + 1] = sb;
  out[to + 2] = sc;
  out[to + 3] = sd;
}

/** A centroid (at `at` in `all`) times a face, four at a time. */
function dotAt(all: Float32Array, at: number, e: Float32Array, dim: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    s0 += all[at + i]! * e[i]!;
    s1 += all[at + i + 1]! * e[i + 1]!;
    s2 += all[at + i + 2]! * e[i + 2]!;
    s3 += all[at + i + 3]! * e[i + 3]!;
  }
  for (; i < dim; i++) s0 += all[at + i]! * e[i]!;
  return s0 + s1 + s2 + s3;
}

export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function unitOf(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}
