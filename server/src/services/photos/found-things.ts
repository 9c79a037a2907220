import type { FaceResult } from '../../media/face-worker.ts';
import { THING_MODEL } from '../../media/things.ts';
import type { Store } from '../../store/index.ts';
import type { PictureTodoRow } from '../../store/database/things.repo.ts';

/** The thing model the finder looks with, or null where things are not looked for (FIND_THINGS=0). */
export function thingModel(findThings: boolean): string | null {
  return findThings ? THING_MODEL : null;
}

/**
 * A picture's things replace what it had (inside the finder's transaction, once the picture is
 * known to be as it was looked at). A picture that could not be looked at is recorded as such,
 * as faces are, and is looked at again with its next version or model.
 */
export function saveThings(store: Store, row: PictureTodoRow, result: FaceResult, at: number): void {
  const things = result.things ?? [];
  store.things.replace(row.id, THING_MODEL, things);
  store.things.recordScan(row.id, row.version, THING_MODEL, things.length, result.failure, at);
}
