import type { Db } from './db.ts';
import { COLUMNS } from './node-rows.ts';
import type { NodeRow } from './nodes.repo.ts';

/** A picture waiting for its faces to be found: a photo, or a video whose poster is made. */
export interface FaceTodoRow {
  id: string;
  owner_id: string;
  version: number;
  mime_type: string | null;
}

export interface FaceRow {
  id: string;
  node_id: string;
  owner_id: string;
  person_id: string | null;
  left_person_id: string | null;
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  embedding: Uint8Array;
  model: string;
}

export interface PersonRow {
  id: string;
  owner_id: string;
  name: string | null;
  hidden: number;
  created_at: number;
  updated_at: number;
}

export interface PersonSummaryRow extends PersonRow {
  photos: number;
  cover_face_id: string;
}

/** One of a person's faces, with the photo it is in. */
export interface PersonFaceRow {
  id: string;
  node_id: string;
  version: number;
  rotation: number;
  name: string;
  taken_sort: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface NewFace {
  id: string;
  x: number;
  y: number;
  w: number;
  h: number;
  score: number;
  embedding: Float32Array;
  person_id: string;
}

/** Photos a face list may show: not in the trash, and never what is in a Private folder. */
const SHOWN = 'n.in_trash = 0 AND n.in_private = 0';
/** What the face (and thing) finder looks at: photos and videos processed (a video's poster is its picture). */
export const SCANNABLE = `n.is_media = 1 AND n.in_trash = 0 AND n.in_private = 0 AND n.has_thumbnail = 1
  AND (n.mime_type LIKE 'image/%' OR n.mime_type LIKE 'video/%')`;

/** Faces, people and which pictures were looked at (migration 26). */
export class FacesRepo {
  private readonly stmts;

  constructor(db: Db) {
    this.stmts = {
      todo: db.prepare(`SELECT n.id, n.owner_id, n.version, n.mime_type FROM nodes n
        WHERE ${SCANNABLE} AND NOT EXISTS (SELECT 1 FROM face_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @model)
        LIMIT @limit`),
      todoCount: db.prepare(`SELECT count(*) AS c FROM nodes n
        WHERE n.owner_id = @owner AND ${SCANNABLE}
          AND NOT EXISTS (SELECT 1 FROM face_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @model)`),
      scanned: db.prepare(`SELECT count(*) AS c FROM face_scans s JOIN nodes n ON n.id = s.node_id
        WHERE s.model = @model AND n.owner_id = @owner`),
      todoAll: db.prepare(`SELECT count(*) AS c FROM nodes n
        WHERE ${SCANNABLE} AND NOT EXISTS (SELECT 1 FROM face_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @model)`),
      scannedShown: db.prepare(`SELECT count(*) AS c FROM nodes n
        WHERE ${SCANNABLE} AND EXISTS (SELECT 1 FROM face_scans s WHERE s.node_id = n.id AND s.version = n.version AND s.model = @model)`),
      facesOfNode: db.prepare('SELECT * FROM faces WHERE node_id = ?'),
      deleteFacesOfNode: db.prepare('DELETE FROM faces WHERE node_id = ?'),
      insertFace: db.prepare(`INSERT INTO faces (id, node_id, owner_id, person_id, x, y, w, h, score, embedding, model)
        VALUES (@id, @node_id, @owner_id, @person_id, @x, @y, @w, @h, @score, @embedding, @model)`),
      recordScan: db.prepare(`INSERT INTO face_scans (node_id, version, model, faces, failure, scanned_at) VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (node_id) DO UPDATE SET version = excluded.version, model = excluded.model, faces = excluded.faces,
          failure = excluded.failure, scanned_at = excluded.scanned_at`),
      privateFaceNodes: db.prepare(
        'SELECT DISTINCT f.node_id, n.owner_id FROM faces f JOIN nodes n ON n.id = f.node_id WHERE n.in_private = 1',
      ),
      forgetScan: db.prepare('DELETE FROM face_scans WHERE node_id = ?'),
      sumsOf: db.prepare('SELECT id, embedding_sum FROM people WHERE owner_id = ?'),
      insertPerson: db.prepare(`INSERT INTO people (id, owner_id, embedding_sum, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`),
      setSum: db.prepare('UPDATE people SET embedding_sum = ?, updated_at = ? WHERE id = ?'),
      embeddingsOf: db.prepare('SELECT embedding FROM faces WHERE person_id = ?'),
      deletePerson: db.prepare('DELETE FROM people WHERE id = ?'),
      person: db.prepare('SELECT id, owner_id, name, hidden, created_at, updated_at FROM people WHERE id = ? AND owner_id = ?'),
      people: db.prepare(`SELECT p.id, p.owner_id, p.name, p.hidden, p.created_at, p.updated_at, count(DISTINCT f.node_id) AS photos,
          (SELECT f2.id FROM faces f2 JOIN nodes n2 ON n2.id = f2.node_id
            WHERE f2.person_id = p.id AND n2.in_trash = 0 AND n2.in_private = 0 ORDER BY f2.w * f2.h * f2.score DESC LIMIT 1) AS cover_face_id
        FROM people p JOIN faces f ON f.person_id = p.id JOIN nodes n ON n.id = f.node_id
        WHERE p.owner_id = ? AND ${SHOWN}
        GROUP BY p.id ORDER BY photos DESC, p.id`),
      face: db.prepare('SELECT * FROM faces WHERE id = ?'),
      photos:
        db.prepare(`SELECT ${COLUMNS}, EXISTS (SELECT 1 FROM stars s WHERE s.node_id = n.id AND s.user_id = @owner) AS starred, 0 AS shared
        FROM nodes n WHERE n.id IN (SELECT node_id FROM faces WHERE person_id = @person) AND ${SHOWN}
          AND (@after_taken IS NULL OR n.taken_sort < @after_taken OR (n.taken_sort = @after_taken AND n.id < @after_id))
        ORDER BY n.taken_sort DESC, n.id DESC LIMIT @limit`),
      faceList:
        db.prepare(`SELECT f.id, f.node_id, n.version, n.rotation, n.name, n.taken_sort, f.x, f.y, f.w, f.h FROM faces f JOIN nodes n ON n.id = f.node_id
        WHERE f.person_id = @person AND ${SHOWN}
          AND (@after_taken IS NULL OR n.taken_sort < @after_taken OR (n.taken_sort = @after_taken AND f.id < @after_id))
        ORDER BY n.taken_sort DESC, f.id DESC LIMIT @limit`),
      rename: db.prepare('UPDATE people SET name = ?, search_name = ?, updated_at = ? WHERE id = ?'),
      hide: db.prepare('UPDATE people SET hidden = ?, updated_at = ? WHERE id = ?'),
      moveFaces: db.prepare('UPDATE faces SET person_id = ? WHERE person_id = ?'),
      setFacePerson: db.prepare('UPDATE faces SET person_id = ?, left_person_id = ? WHERE id = ?'),
      emptyPeople: db.prepare('DELETE FROM people WHERE owner_id = ? AND NOT EXISTS (SELECT 1 FROM faces f WHERE f.person_id = people.id)'),
      shownFacesOfNode: db.prepare(`SELECT f.id, f.person_id, f.x, f.y, f.w, f.h, f.score, p.name, p.hidden FROM faces f
        LEFT JOIN people p ON p.id = f.person_id AND p.owner_id = f.owner_id WHERE f.node_id = ? ORDER BY f.x`),
      shownNodesOf: db.prepare(`SELECT DISTINCT n.id, n.owner_id FROM faces f JOIN nodes n ON n.id = f.node_id
        WHERE f.person_id IN (SELECT value FROM json_each(?)) AND ${SHOWN}`),
    };
  }

  /** Pictures whose faces were not found by `model` for their current content. */
  todo(model: string, limit: number): FaceTodoRow[] {
    return this.stmts.todo.all({ model, limit }) as FaceTodoRow[];
  }

  /** The account's own pictures still to be looked at by `model`, and those looked at. */
  progress(model: string, ownerId: string): { waiting: number; done: number } {
    return {
      waiting: Number((this.stmts.todoCount.get({ model, owner: ownerId }) as { c: number }).c),
      done: Number((this.stmts.scanned.get({ model, owner: ownerId }) as { c: number }).c),
    };
  }

  /** The owner's counts: of the pictures there are now, those looked at and those waiting (so done + waiting is the whole). */
  shownProgress(model: string): { waiting: number; done: number } {
    return {
      waiting: Number((this.stmts.todoAll.get({ model }) as { c: number }).c),
      done: Number((this.stmts.scannedShown.get({ model }) as { c: number }).c),
    };
  }

  facesOfNode(nodeId: string): FaceRow[] {
    return this.stmts.facesOfNode.all(nodeId) as FaceRow[];
  }

  /** Takes a picture's old faces away (a new version, a new model); the people they were in are returned. */
  dropFacesOf(nodeId: string): string[] {
    const people = new Set(this.facesOfNode(nodeId).flatMap((f) => (f.person_id ? [f.person_id] : [])));
    this.stmts.deleteFacesOfNode.run(nodeId);
    return [...people];
  }

  insertFace(nodeId: string, ownerId: string, model: string, face: NewFace): void {
    this.stmts.insertFace.run({ ...face, node_id: nodeId, owner_id: ownerId, model, embedding: bytesOf(face.embedding) });
  }

  recordScan(nodeId: string, version: number, model: string, faces: number, failure: string | null, at: number): void {
    this.stmts.recordScan.run(nodeId, version, model, faces, failure, at);
  }

  /** Pictures with faces that went into a Private folder since: their faces go, and are found again if they come out. */
  privateFaceNodes(): { node_id: string; owner_id: string }[] {
    return this.stmts.privateFaceNodes.all() as { node_id: string; owner_id: string }[];
  }

  forgetScan(nodeId: string): void {
    this.stmts.forgetScan.run(nodeId);
  }

  /** Each of the account's people with the sum of its faces' embeddings. */
  sums(ownerId: string): { id: string; sum: Float32Array }[] {
    return (this.stmts.sumsOf.all(ownerId) as { id: string; embedding_sum: Uint8Array }[]).map((r) => ({
      id: r.id,
      sum: floatsOf(r.embedding_sum),
    }));
  }

  insertPerson(id: string, ownerId: string, sum: Float32Array, at: number): void {
    this.stmts.insertPerson.run(id, ownerId, bytesOf(sum), at, at);
  }

  setSum(personId: string, sum: Float32Array, at: number): void {
    this.stmts.setSum.run(bytesOf(sum), at, personId);
  }

  /** Adds up a person's faces again (after faces left it); a person with none left goes. Returns the sum, or null when it went. */
  resum(personId: string, at: number): Float32Array | null {
    const rows = this.stmts.embeddingsOf.all(personId) as { embedding: Uint8Array }[];
    if (rows.length === 0) {
      this.stmts.deletePerson.run(personId);
      return null;
    }
    const sum = new Float32Array(floatsOf(rows[0]!.embedding).length);
    for (const row of rows) {
      const e = floatsOf(row.embedding);
      for (let i = 0; i < sum.length; i++) sum[i]! += e[i]!;
    }
    this.setSum(personId, sum, at);
    return sum;
  }

  person(personId: string, ownerId: string): PersonRow | undefined {
    return this.stmts.person.get(personId, ownerId) as PersonRow | undefined;
  }

  /** The account's people with a photo it can show, most photos first, each with its best face. */
  people(ownerId: string): PersonSummaryRow[] {
    return this.stmts.people.all(ownerId) as PersonSummaryRow[];
  }

  face(faceId: string): FaceRow | undefined {
    return this.stmts.face.get(faceId) as FaceRow | undefined;
  }

  /** A page of a person's photos, newest first. */
  photos(
    ownerId: string,
    personId: string,
    after: { taken: number; id: string } | null,
    limit: number,
  ): (NodeRow & { taken_sort: number })[] {
    return this.stmts.photos.all({
      owner: ownerId,
      person: personId,
      after_taken: after?.taken ?? null,
      after_id: after?.id ?? null,
      limit,
    }) as (NodeRow & { taken_sort: number })[];
  }

  /** A page of a person's faces, in the order of their photos (newest first), with each photo's name and version. */
  faceList(personId: string, after: { taken: number; id: string } | null, limit: number): PersonFaceRow[] {
    return this.stmts.faceList.all({
      person: personId,
      after_taken: after?.taken ?? null,
      after_id: after?.id ?? null,
      limit,
    }) as PersonFaceRow[];
  }

  rename(personId: string, name: string | null, searchName: string | null, at: number): void {
    this.stmts.rename.run(name, searchName, at, personId);
  }

  setHidden(personId: string, hidden: boolean, at: number): void {
    this.stmts.hide.run(hidden ? 1 : 0, at, personId);
  }

  /** Every face of `from` becomes `into`'s. */
  moveFaces(fromId: string, intoId: string): void {
    this.stmts.moveFaces.run(intoId, fromId);
  }

  setFacePerson(faceId: string, personId: string | null, leftPersonId: string | null): void {
    this.stmts.setFacePerson.run(personId, leftPersonId, faceId);
  }

  deletePerson(personId: string): void {
    this.stmts.deletePerson.run(personId);
  }

  dropEmptyPeople(ownerId: string): void {
    this.stmts.emptyPeople.run(ownerId);
  }

  /** The photos (out of the trash and Private) these people are in, with whose each is. */
  shownNodesOf(personIds: readonly string[]): { id: string; owner_id: string }[] {
    return this.stmts.shownNodesOf.all(JSON.stringify(personIds)) as { id: string; owner_id: string }[];
  }

  /** A picture's faces with who each is (its owner's people). */
  shownFacesOf(nodeId: string): {
    id: string;
    person_id: string | null;
    x: number;
    y: number;
    w: number;
    h: number;
    score: number;
    name: string | null;
    hidden: number | null;
  }[] {
    return this.stmts.shownFacesOfNode.all(nodeId) as ReturnType<FacesRepo['shownFacesOf']>;
  }
}

export function bytesOf(values: Float32Array): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

export function floatsOf(bytes: Uint8Array): Float32Array {
  // A copy: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return new Float32Array(copy.buffer);
}
