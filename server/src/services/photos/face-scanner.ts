import fs from 'node:fs/promises';
import { FACE_MODEL } from '../../media/face-model.ts';
import { FaceWorker, type FaceResult } from '../../media/face-worker.ts';
import type { ContentStores } from '../../store/content/content-stores.ts';
import type { ThumbnailStore } from '../../store/content/thumbs.ts';
import type { PictureTodoRow } from '../../store/database/things.repo.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FamilyFirst } from '../common/family-first.ts';
import { newId } from '../common/secrets.ts';
import { FaceClusters } from './face-clusters.ts';
import type { FaceEvents } from './face-events.ts';
import type { FacePace } from './face-pacing.ts';
import { saveThings, thingModel } from './found-things.ts';

const BATCH = 20;
const WAKES = new Set(['node.thumbnail_ready', 'node.updated', 'node.created', 'node.moved', 'node.deleted', 'node.restored']);
/** A rest between looks for new work when nothing wakes the finder (a missed event costs this much delay). */
const REST_MS = 10 * 60_000;
/** How long a turn waits for the thumbnails of an upload before it looks again. */
const THUMBNAIL_WAIT_MS = 5_000;
/** The longest the worker is held for the family at a time: slowed under use, never stopped. */
const FAMILY_HOLD_MS = 200;

export interface ThumbnailWork {
  busy(): boolean;
  idle(): Promise<void>;
}

/**
 * Finds the faces of every photo (and video poster) in the background and groups them into each
 * account's people. It takes the CPU nobody else wants: the worker runs at the lowest priority,
 * each picture waits until the thumbnails of what the family is uploading are made and until no
 * request is being answered (FamilyFirst), one picture at a time. Nothing in a Private folder is
 * ever looked at, and faces of a photo moved there go. What was looked at is kept per content
 * version and model (face_scans), so a restart goes on where it was, and a new model looks again.
 * The owner's pause and speed (FacePace) are obeyed between pictures: paused, the worker is
 * stopped with its picture; at a speed, each picture is followed by a rest in proportion.
 */
export class FaceScanner {
  private readonly worker = new FaceWorker();
  /** Each account's people as the finder compares faces with them; dropped whenever people change otherwise. */
  private readonly clusters = new Map<string, FaceClusters>();
  /** Pictures whose file was away (a drive): skipped until the next start. */
  private readonly skipped = new Set<string>();
  private stopped = false;
  private resting = false;
  private wakeUp: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  private loop: Promise<void> | null = null;
  private unsubscribe: (() => void) | null = null;
  /** Owners whose photos were looked at since the finder last rested: told once more when it does (People's progress). */
  private readonly looked = new Set<string>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly thumbs: ThumbnailStore,
    private readonly thumbnails: ThumbnailWork,
    private readonly familyFirst: FamilyFirst,
    private readonly events: FaceEvents,
    private readonly pace: FacePace,
  ) {}

  start(): void {
    if (!this.deps.config.findFaces) return;
    this.unsubscribe = this.deps.bus.subscribe(({ message }) => {
      // A photo processed (its thumbnail ready), moved into Private or out of the trash: look again.
      if (WAKES.has(message.type)) this.wake();
    });
    // While a request is answered the picture's process waits (200 ms at most each time, as turn() does).
    this.familyFirst.onBusy((busy) => (busy ? this.worker.hold(FAMILY_HOLD_MS) : this.worker.release()));
    this.pace.onChange(() => {
      // Paused: the worker goes now, with the picture it had (looked at again on resuming).
      if (this.pace.paused) this.worker.halt();
      this.wake();
    });
    this.loop = this.run().catch((error: unknown) => this.deps.log.error('face finding stopped', { error: String(error) }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.worker.close();
    this.wake();
    this.pace.wake();
    await this.loop;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Resolves once every picture there is has been looked at (tests, benchmarks). */
  idle(): Promise<void> {
    if (!this.deps.config.findFaces || this.stopped || this.resting || this.pace.paused) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** People were changed by hand (named, merged, a face moved out): compared afresh from the database. */
  forget(ownerId: string): void {
    this.clusters.delete(ownerId);
  }

  /** The account's own photos only: how many photos others have, or are adding, is not theirs to know. */
  progress(ownerId: string): { waiting: number; done: number } {
    return this.deps.store.faces.progress(FACE_MODEL, ownerId);
  }

  private wake(): void {
    this.resting = false;
    const wake = this.wakeUp;
    this.wakeUp = null;
    wake?.();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.pace.paused) {
        for (const wake of this.idleWaiters.splice(0)) wake();
        await this.pace.untilRunning(() => this.stopped);
        continue;
      }
      try {
        this.dropPrivate();
        const rows = this.deps.store.things
          .todo(FACE_MODEL, thingModel(this.deps.config.findThings), BATCH + this.skipped.size)
          .filter((r) => !this.skipped.has(r.id));
        if (rows.length === 0) {
          this.tellRested();
          const sleeping = this.sleep(REST_MS);
          this.resting = true;
          for (const wake of this.idleWaiters.splice(0)) wake();
          this.pace.finished();
          await sleeping;
          continue;
        }
        for (const row of rows.slice(0, BATCH)) {
          if (this.stopped || this.pace.paused) break;
          await this.familysTurn();
          if (this.stopped || this.pace.paused) break;
          const began = performance.now();
          const workMs = await this.scan(row);
          if (workMs !== null) await this.pace.rest(workMs, performance.now() - began, () => this.stopped);
        }
      } catch (error) {
        if (this.stopped) return;
        this.deps.log.error('face finding step failed', { error: String(error) });
        await this.sleep(this.deps.config.mediaRetryMs);
      }
    }
  }

  /** Uploads' thumbnails first, then the requests being answered. */
  private async familysTurn(): Promise<void> {
    while (this.thumbnails.busy() && !this.stopped) {
      await Promise.race([this.thumbnails.idle(), new Promise((r) => setTimeout(r, THUMBNAIL_WAIT_MS).unref())]);
    }
    await this.familyFirst.turn();
  }

  /** Looks at one picture; returns the worker's CPU time for it, or null when nothing ran (or a pause took its answer). */
  private async scan(row: PictureTodoRow): Promise<number | null> {
    const file = await this.pictureOf(row);
    if (!file) {
      this.skipped.add(row.id);
      return null;
    }
    // Paused while the file was found: the worker is not started for it.
    if (this.pace.paused) return null;
    // Faces and things in one look; only what this picture still lacks (a new thing model leaves its faces be).
    const result = await this.worker.find(file, { faces: row.want_faces === 1, things: row.want_things === 1 });
    // Paused while it was looked at: its answer (a halted worker's) is not kept.
    if (this.stopped || this.pace.paused) return null;
    this.save(row, result);
    return result.cpuMs;
  }

  /**
   * What the model looks at: a video's poster and an HEIC's large thumbnail (made when they came,
   * upright), else the photo itself, which the worker decodes at the size it needs.
   */
  private async pictureOf(row: PictureTodoRow): Promise<string | null> {
    const mime = row.mime_type ?? '';
    if (mime.startsWith('video/') || mime === 'image/heic' || mime === 'image/heif') {
      for (const size of [1024, 512]) {
        const thumb = this.thumbs.pathOf(row.id, row.version, size);
        if (
          await fs.access(thumb).then(
            () => true,
            () => false,
          )
        )
          return thumb;
      }
      return null;
    }
    const version = this.deps.store.versions.current(row.id);
    if (!version || !this.content.isOnline(version.library_id)) return null;
    return this.content.of(version.library_id).pathOf(version.blob);
  }

  /**
   * The picture's faces replace what it had, each put with the owner's person it is most like;
   * then the owner's People hears, and whoever may see the photo hears that its faces changed.
   */
  private save(row: PictureTodoRow, result: FaceResult): void {
    const at = this.deps.now();
    let touched: Set<string> | null;
    try {
      touched = this.saveNow(row, result, at);
    } catch (error) {
      // The grouping in memory took faces the database did not: compared afresh from the database next time.
      this.forget(row.owner_id);
      throw error;
    }
    if (touched === null) return;
    this.looked.add(row.owner_id);
    this.events.peopleChanged(row.owner_id, touched);
    if (touched.size > 0) this.events.photosChanged([{ id: row.id, owner_id: row.owner_id }]);
  }

  /** The people the picture's faces joined or left, or null when no faces were saved (it changed meanwhile, or only things were looked for). */
  private saveNow(row: PictureTodoRow, result: FaceResult, at: number): Set<string> | null {
    const { store } = this.deps;
    return store.transaction(() => {
      // Moved into Private, trashed or replaced while it was looked at: the next pass sees it as it is now.
      const node = store.nodes.byId(row.id, row.owner_id);
      if (!node || node.version !== row.version || node.in_private || node.in_trash) return null;
      if (row.want_things) saveThings(store, row, result, at);
      // Looked at for things alone (a new thing model): People has nothing to hear.
      if (!row.want_faces) return null;
      const left = store.faces.dropFacesOf(row.id);
      const touched = new Set(left);
      if (left.length > 0) {
        for (const personId of left) store.faces.resum(personId, at);
        this.forget(row.owner_id);
      }
      const faces = result.faces ?? [];
      const clusters = this.clustersOf(row.owner_id);
      for (const face of faces) {
        const person = clusters.add(face.embedding, newId);
        if (person.created) store.faces.insertPerson(person.id, row.owner_id, person.sum, at);
        else store.faces.setSum(person.id, person.sum, at);
        store.faces.insertFace(row.id, row.owner_id, FACE_MODEL, { ...face, id: newId(), person_id: person.id });
        touched.add(person.id);
      }
      store.faces.recordScan(row.id, row.version, FACE_MODEL, faces.length, result.failure, at);
      return touched;
    });
  }

  /** Everything is looked at: each owner whose photos were looked at hears once more, so People's "to go" reaches nothing. */
  private tellRested(): void {
    for (const ownerId of this.looked) this.events.peopleChanged(ownerId, []);
    this.looked.clear();
  }

  private clustersOf(ownerId: string): FaceClusters {
    let clusters = this.clusters.get(ownerId);
    if (!clusters) {
      clusters = new FaceClusters(this.deps.store.faces.sums(ownerId));
      this.clusters.set(ownerId, clusters);
    }
    return clusters;
  }

  /** Faces and things of photos that went into a Private folder go, with their scans (looked at again if they come out). */
  private dropPrivate(): void {
    const { store } = this.deps;
    store.things.dropPrivate();
    const nodes = store.faces.privateFaceNodes();
    if (nodes.length === 0) return;
    const at = this.deps.now();
    const left = new Map<string, string[]>();
    store.transaction(() => {
      for (const { node_id, owner_id } of nodes) {
        const people = store.faces.dropFacesOf(node_id);
        for (const personId of people) store.faces.resum(personId, at);
        left.set(owner_id, [...(left.get(owner_id) ?? []), ...people]);
        store.faces.forgetScan(node_id);
      }
    });
    this.clusters.clear();
    // Its owner's People loses the photo; nobody else hears of a photo in Private.
    for (const [ownerId, people] of left) this.events.peopleChanged(ownerId, people);
  }
}
