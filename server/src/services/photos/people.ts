import { AppError } from '../../app-error.ts';
import type { Node } from '../../contract/files-responses.ts';
import type { Page } from '../../contract/page.ts';
import type { FaceMovedOut, PeopleList, Person, PersonFace, PhotoFaces } from '../../contract/people-responses.ts';
import type { PersonRow } from '../../store/database/faces.repo.ts';
import type { AccessService } from '../files/access.ts';
import { toNodeDto } from '../files/node-dto.ts';
import { searchKey } from '../files/node-names.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { newId } from '../common/secrets.ts';
import type { FaceEvents } from './face-events.ts';
import type { FaceScanner } from './face-scanner.ts';

const MAX_NAME = 100;
const MAX_MERGE = 100;

/**
 * People: the faces in an account's own photos, grouped. Everything here is the caller's own: a
 * person of another account is 404, as if it did not exist. A name is kept on the person, so
 * search finds their photos ("grandma"). The name travels only with the photo: whoever may see
 * a photo (AccessService: a partner, an album's people, a grantee) sees who its owner named in
 * it, and nobody else learns anything of it.
 */
export class PeopleService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly scanner: FaceScanner,
    private readonly events: FaceEvents,
  ) {}

  list(actor: Actor): PeopleList {
    const { faces } = this.deps.store;
    const items = faces.people(actor.userId).flatMap((row) => {
      const person = this.toPerson(row, row.photos, row.cover_face_id);
      return person ? [person] : [];
    });
    return { items, progress: this.scanner.progress(actor.userId) };
  }

  get(actor: Actor, personId: string): Person {
    this.own(actor, personId);
    const person = this.deps.store.faces.people(actor.userId).find((p) => p.id === personId);
    const shown = person && this.toPerson(person, person.photos, person.cover_face_id);
    // Every face of theirs is in the trash or Private now: as good as gone.
    if (!shown) throw new AppError('not_found');
    return shown;
  }

  /** Their photos, newest taken first, paged as the other photo lists are. */
  photos(actor: Actor, personId: string, input: PageRequest): Page<Node> {
    this.own(actor, personId);
    return keysetPage(
      input,
      (key, limit) => this.deps.store.faces.photos(actor.userId, personId, parseKey(key), limit),
      (row) => `${row.taken_sort}:${row.id}`,
      toNodeDto,
    );
  }

  /** Their faces, one for each time they are in a photo, in the order of their photos: to find one that is not them. */
  faces(actor: Actor, personId: string, input: PageRequest): Page<PersonFace> {
    this.own(actor, personId);
    return keysetPage(
      input,
      (key, limit) => this.deps.store.faces.faceList(personId, parseKey(key), limit),
      (row) => `${row.taken_sort}:${row.id}`,
      (row) => ({
        id: row.id,
        node_id: row.node_id,
        version: row.version,
        rotation: row.rotation,
        name: row.name,
        box: { x: row.x, y: row.y, w: row.w, h: row.h },
      }),
    );
  }

  update(actor: Actor, personId: string, input: { name?: string | null | undefined; hidden?: boolean | undefined }): Person {
    this.own(actor, personId);
    const at = this.deps.now();
    if (input.name !== undefined) {
      const name = input.name === null ? '' : input.name.trim();
      if (name.length > MAX_NAME) throw new AppError('invalid_name', undefined, { field: 'name' });
      this.deps.store.faces.rename(personId, name || null, name ? ` ${searchKey(name)} ` : null, at);
    }
    if (input.hidden !== undefined) this.deps.store.faces.setHidden(personId, input.hidden, at);
    const person = this.get(actor, personId);
    this.events.peopleChanged(actor.userId, [personId]);
    // What others who see these photos are shown of them changed with the name (or its hiding).
    this.events.peoplesPhotosChanged([personId]);
    return person;
  }

  /** Puts the faces of `fromIds` with this person: one person, their name kept (or the first name among them). */
  merge(actor: Actor, personId: string, fromIds: string[]): Person {
    const into = this.own(actor, personId);
    const from = [...new Set(fromIds)].filter((id) => id !== personId);
    if (from.length === 0 || from.length > MAX_MERGE) throw new AppError('invalid_input', undefined, { field: 'from' });
    const others = from.map((id) => this.own(actor, id));
    const { store } = this.deps;
    const at = this.deps.now();
    store.transaction(() => {
      for (const other of others) store.faces.moveFaces(other.id, into.id);
      const named = into.name ?? others.find((o) => o.name !== null)?.name ?? null;
      if (named !== into.name) store.faces.rename(into.id, named, named ? ` ${searchKey(named)} ` : null, at);
      for (const other of others) store.faces.deletePerson(other.id);
      store.faces.resum(into.id, at);
    });
    this.scanner.forget(actor.userId);
    const person = this.get(actor, personId);
    this.events.peopleChanged(actor.userId, [personId, ...from]);
    this.events.peoplesPhotosChanged([personId]);
    return person;
  }

  /** A face that is not this person: it leaves them and stands alone, never put back with them. */
  moveOut(actor: Actor, personId: string, faceId: string): FaceMovedOut {
    this.own(actor, personId);
    const { store } = this.deps;
    const face = store.faces.face(faceId);
    if (!face || face.person_id !== personId) throw new AppError('not_found');
    const at = this.deps.now();
    const aloneId = newId();
    store.transaction(() => {
      store.faces.insertPerson(aloneId, actor.userId, new Float32Array(0), at);
      store.faces.setFacePerson(face.id, aloneId, personId);
      store.faces.resum(aloneId, at);
      store.faces.resum(personId, at);
    });
    this.scanner.forget(actor.userId);
    const moved = { person: this.get(actor, aloneId) };
    this.events.peopleChanged(actor.userId, [personId, aloneId]);
    this.events.photosChanged([{ id: face.node_id, owner_id: face.owner_id }]);
    return moved;
  }

  /**
   * The faces in a photo the caller may see (404 otherwise, as for the photo itself), and who
   * each is as the photo's OWNER named them. Its owner sees every face. Anyone else who sees the
   * photo sees only the people its owner named and did not hide, without the person's id (their
   * People is not the caller's to open): an unnamed face tells them nothing they cannot see in
   * the photo, and a hidden one is someone the owner chose to leave out. Private shows nothing.
   */
  photoFaces(actor: Actor, nodeId: string): PhotoFaces {
    const node = this.access.node(actor, nodeId, 'read');
    if (node.in_private) return { items: [] };
    const mine = node.owner_id === actor.userId;
    return {
      items: this.deps.store.faces
        .shownFacesOf(nodeId)
        .filter((f) => mine || (f.name !== null && f.hidden === 0))
        .map((f) => ({
          id: f.id,
          box: { x: f.x, y: f.y, w: f.w, h: f.h },
          person_id: mine ? f.person_id : null,
          name: f.name,
        })),
    };
  }

  private own(actor: Actor, personId: string): PersonRow {
    const person = this.deps.store.faces.person(personId, actor.userId);
    if (!person) throw new AppError('not_found');
    return person;
  }

  private toPerson(row: PersonRow, photos: number, coverFaceId: string | null): Person | null {
    const face = coverFaceId ? this.deps.store.faces.face(coverFaceId) : undefined;
    const node = face && this.deps.store.nodes.byId(face.node_id, row.owner_id);
    if (!face || !node) return null;
    return {
      id: row.id,
      name: row.name,
      hidden: row.hidden === 1,
      photo_count: photos,
      cover: {
        face_id: face.id,
        node_id: face.node_id,
        version: node.version,
        rotation: node.rotation,
        box: { x: face.x, y: face.y, w: face.w, h: face.h },
      },
    };
  }
}

function parseKey(key: string | null): { taken: number; id: string } | null {
  if (key === null) return null;
  const at = key.indexOf(':');
  const taken = Number(key.slice(0, at));
  if (at < 1 || !Number.isSafeInteger(taken)) throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
  return { taken, id: key.slice(at + 1) };
}
