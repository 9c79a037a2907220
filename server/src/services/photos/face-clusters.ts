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

  constructor(people: readonly { id: string; sum: Float32Array }[] = []) {
    for (const p of people) this.addPerson(p.id, p.sum);
  }

  get size(): number {
    return this.ids.length;
  }

  /** The person a face is most like, if alike enough; `except` is a person it was moved out of. */
  nearest(embedding: Float32Array, except: string | null = null): Assignment {
    let best = -1;
    let bestSimilarity = -Infinity;
    const dim = this.dim;
    const all = this.centroids;
    for (let p = 0, at = 0; p < this.ids.length; p++, at += dim) {
      if (this.ids[p] === except) continue;
      const similarity = dotAt(all, at, embedding, dim);
      if (similarity > bestSimilarity) {
        bestSimilarity = similarity;
        best = p;
      }
    }
    return bestSimilarity >= SAME_PERSON ? { index: best, similarity: bestSimilarity } : { index: -1, similarity: bestSimilarity };
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
