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
import { saveThings, thingModel } from './found-things.ts';

const BATCH = 20;
const WAKES = new Set(['node.thumbnail_ready', 'node.updated', 'node.created', 'node.deleted', 'node.restored']);
/** A rest between looks for new work when nothing wakes the finder (a missed event costs this much delay). */
const REST_MS = 10 * 60_000;
/** How long a turn waits for the thumbnails of an upload before it looks again. */
const THUMBNAIL_WAIT_MS = 5_000;

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

  constructor(
    private readonly deps: ServiceDeps,
    private readonly content: ContentStores,
    private readonly thumbs: ThumbnailStore,
    private readonly thumbnails: ThumbnailWork,
    private readonly familyFirst: FamilyFirst,
  ) {}

  start(): void {
    if (!this.deps.config.findFaces) return;
    this.unsubscribe = this.deps.bus.subscribe(({ message }) => {
      // A photo processed (its thumbnail ready), moved into Private or out of the trash: look again.
      if (WAKES.has(message.type)) this.wake();
    });
    this.loop = this.run().catch((error: unknown) => this.deps.log.error('face finding stopped', { error: String(error) }));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.worker.close();
    this.wake();
    await this.loop;
    for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** Resolves once every picture there is has been looked at (tests, benchmarks). */
  idle(): Promise<void> {
    if (!this.deps.config.findFaces || this.stopped || this.resting) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** People were changed by hand (named, merged, a face moved out): compared afresh from the database. */
  forget(ownerId: string): void {
    this.clusters.delete(ownerId);
  }

  progress(): { waiting: number; done: number } {
    return this.deps.store.faces.progress(FACE_MODEL);
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
      try {
        this.dropPrivate();
        const rows = this.deps.store.things
          .todo(FACE_MODEL, thingModel(this.deps.config.findThings), BATCH + this.skipped.size)
          .filter((r) => !this.skipped.has(r.id));
        if (rows.length === 0) {
          const sleeping = this.sleep(REST_MS);
          this.resting = true;
          for (const wake of this.idleWaiters.splice(0)) wake();
          await sleeping;
          continue;
        }
        for (const row of rows.slice(0, BATCH)) {
          if (this.stopped) return;
          await this.familysTurn();
          await this.scan(row);
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

  private async scan(row: PictureTodoRow): Promise<void> {
    const file = await this.pictureOf(row);
    if (!file) {
      this.skipped.add(row.id);
      return;
    }
    // Faces and things in one look; only what this picture still lacks (a new thing model leaves its faces be).
    const result = await this.worker.find(file, { faces: row.want_faces === 1, things: row.want_things === 1 });
    if (this.stopped) return;
    this.save(row, result);
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

  /** The picture's faces replace what it had, each put with the owner's person it is most like. */
  private save(row: PictureTodoRow, result: FaceResult): void {
    const at = this.deps.now();
    try {
      this.saveNow(row, result, at);
    } catch (error) {
      // The grouping in memory took faces the database did not: compared afresh from the database next time.
      this.forget(row.owner_id);
      throw error;
    }
  }

  private saveNow(row: PictureTodoRow, result: FaceResult, at: number): void {
    const { store } = this.deps;
    store.transaction(() => {
      // Moved into Private, trashed or replaced while it was looked at: the next pass sees it as it is now.
      const node = store.nodes.byId(row.id, row.owner_id);
      if (!node || node.version !== row.version || node.in_private || node.in_trash) return;
      if (row.want_things) saveThings(store, row, result, at);
      if (!row.want_faces) return;
      const left = store.faces.dropFacesOf(row.id);
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
      }
      store.faces.recordScan(row.id, row.version, FACE_MODEL, faces.length, result.failure, at);
    });
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
    store.transaction(() => {
      for (const nodeId of nodes) {
        for (const personId of store.faces.dropFacesOf(nodeId)) store.faces.resum(personId, at);
        store.faces.forgetScan(nodeId);
      }
    });
    this.clusters.clear();
  }
}
