import type { FaceFinding, FaceSpeed } from '../../contract/face-finding-responses.ts';
import { FACE_MODEL } from '../../media/face-model.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { DEFAULT_FACE_CHOICE, FacePace, type FaceChoice } from './face-pacing.ts';

/** Where the owner's choice is kept: the settings table, beside (not among) GET /server/settings' keys. */
const SETTING = 'face_finding';
/** Progress events while pictures are looked at: at most one this often (each one counts the library). */
const ANNOUNCE_MS = 5_000;

/** The owner's last choice, or the default; anything unreadable (an older or damaged row) counts as the default. */
export function storedFaceChoice(deps: ServiceDeps): FaceChoice {
  const stored = deps.store.settings.get<Partial<FaceChoice>>(SETTING);
  const speed: FaceSpeed = stored?.speed === 'gentle' || stored?.speed === 'fast' ? stored.speed : DEFAULT_FACE_CHOICE.speed;
  return { paused: stored?.paused === true, speed };
}

/**
 * Face finding as the owner sees and steers it (Manage → Storage): how far it has got, its
 * speed, and two choices kept across restarts, a pause and the share of the CPU it may use.
 * Admins only; the live view goes to them as `faces.progress`.
 */
export class FaceFindingService {
  private lastAnnounced = 0;
  /** Pictures looked at since the last event. */
  private unannounced = 0;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly pace: FacePace,
  ) {
    pace.onPicture((finished) => {
      if (!finished) this.unannounced += 1;
      // Every wake that finds nothing to do says "finished": told once, after the pictures it ends.
      if (finished ? this.unannounced === 0 : performance.now() - this.lastAnnounced < ANNOUNCE_MS) return;
      this.announce();
    });
  }

  view(actor: Actor): FaceFinding {
    requireAdmin(actor);
    return this.current();
  }

  update(actor: Actor, patch: { paused?: boolean | undefined; speed?: FaceSpeed | undefined }): FaceFinding {
    requireAdmin(actor);
    const choice: FaceChoice = { paused: patch.paused ?? this.pace.paused, speed: patch.speed ?? this.pace.speed };
    // Kept before it is obeyed: an answer the owner saw survives a restart.
    this.deps.store.settings.put(SETTING, choice);
    this.pace.set(choice);
    this.announce();
    return this.current();
  }

  private current(): FaceFinding {
    const available = this.deps.config.findFaces;
    const { waiting, done } = this.deps.store.faces.shownProgress(FACE_MODEL);
    const paused = this.pace.paused;
    const state = !available ? 'off' : paused ? 'paused' : waiting > 0 ? 'finding' : 'done';
    const perMinute = state === 'finding' ? this.pace.photosPerMinute() : null;
    return {
      available,
      paused,
      speed: this.pace.speed,
      state,
      total: waiting + done,
      done,
      waiting,
      photos_per_minute: perMinute === null ? null : Math.round(perMinute * 10) / 10,
      seconds_left: perMinute ? Math.round((waiting / perMinute) * 60) : null,
      last_photo: this.pace.lastPhoto,
    };
  }

  private announce(): void {
    this.lastAnnounced = performance.now();
    this.unannounced = 0;
    try {
      this.deps.bus.publish('faces.progress', { finding: this.current() }, { users: this.deps.store.users.activeAdminIds() });
    } catch (error) {
      // A count that failed (a disk gone) costs one event, never the picture that was looked at.
      this.deps.log.warn('face finding progress not announced', { error: String(error) });
    }
  }
}
