import type { Store } from '../../store/index.ts';
import type { UserRow } from '../../store/database/users.repo.ts';

/**
 * What an account's quota counts: every version of its files, the trash's too, and the playback
 * copies made of its videos (a member at quota once had a 6.7 MB copy made of a 566 KB video,
 * charged to no one). A copy of content two accounts hold counts for each, as the content does.
 */
export function quotaUsed(store: Pick<Store, 'playback'>, user: Pick<UserRow, 'id' | 'used_bytes'>): number {
  return user.used_bytes + store.playback.chargedTo(user.id);
}
