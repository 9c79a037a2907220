import type { Activity } from '../../contract/files-responses.ts';
import type { Page } from '../../contract/page.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { newId } from '../common/secrets.ts';

export type ActivityType =
  | 'folder.created'
  | 'file.uploaded'
  | 'file.version_added'
  | 'node.renamed'
  | 'node.moved'
  | 'node.recolored'
  | 'node.trashed'
  | 'node.restored'
  | 'node.deleted'
  | 'version.restored'
  | 'trash.purged';

/** The account's log of what happened to its files. Written in the transaction of the change. */
export class ActivityService {
  constructor(private readonly deps: ServiceDeps) {}

  record(ownerId: string, actorId: string | null, type: ActivityType, nodeId: string | null, details: object = {}): void {
    this.deps.store.activity.add({
      id: newId(),
      user_id: ownerId,
      actor_id: actorId,
      type,
      node_id: nodeId,
      at: this.deps.now(),
      details: JSON.stringify(details),
    });
  }

  list(actor: Actor, page: PageRequest): Page<Activity> {
    return keysetPage(
      page,
      (before, limit) => this.deps.store.activity.page(actor.userId, before, limit),
      (row) => row.id,
      (row) => ({
        id: row.id,
        type: row.type,
        actor_id: row.actor_id,
        node_id: row.node_id,
        at: row.at,
        details: JSON.parse(row.details) as Record<string, unknown>,
      }),
    );
  }
}
