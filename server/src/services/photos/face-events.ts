import type { AccessService } from '../files/access.ts';
import type { ServiceDeps } from '../common/context.ts';

/** Ids per message: a person in thousands of photos is told in a few messages, not thousands (a socket's queue holds 256). */
const CHUNK = 500;

/**
 * What the family's screens hear when faces change. People are their owner's alone, so
 * `people.changed` goes to the owner only. `photo.faces` names photos, each told only to the
 * accounts that may see it now (AccessService.audienceOf: owner, grantees, album members,
 * partners; nobody for Private), so an event never tells anyone of a photo they cannot open, let
 * alone who is in it; its payload carries ids only, and the names are asked for through the
 * access check.
 */
export class FaceEvents {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
  ) {}

  peopleChanged(ownerId: string, personIds: Iterable<string>): void {
    this.deps.bus.publish('people.changed', { person_ids: [...new Set(personIds)] }, { users: [ownerId] });
  }

  /** The photos (not in the trash or Private) of these people: the names shown on them changed. */
  peoplesPhotosChanged(personIds: readonly string[]): void {
    if (personIds.length === 0) return;
    this.photosChanged(this.deps.store.faces.shownNodesOf(personIds));
  }

  photosChanged(nodes: readonly { id: string; owner_id: string }[]): void {
    const byUser = new Map<string, string[]>();
    for (const node of nodes) {
      const audience = this.access.audienceOf(node);
      if (!('users' in audience)) continue;
      for (const userId of audience.users) {
        let ids = byUser.get(userId);
        if (!ids) byUser.set(userId, (ids = []));
        ids.push(node.id);
      }
    }
    for (const [userId, ids] of byUser) {
      for (let at = 0; at < ids.length; at += CHUNK) {
        this.deps.bus.publish('photo.faces', { node_ids: ids.slice(at, at + CHUNK) }, { users: [userId] });
      }
    }
  }
}
