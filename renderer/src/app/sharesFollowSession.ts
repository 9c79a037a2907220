import { session } from '../api/session.ts';
import { openSharedInbox } from '../service-worker/share-inbox.ts';

/**
 * Tells the Share target's inbox who is signed in on this device, as it changes: the service
 * worker, which receives shares and cannot read the page's storage, keeps each share for that
 * account (and what arrived signed out becomes the next account's to sign in). Nothing to do
 * where the browser has no IndexedDB: no share is ever kept there.
 */
export function sharesFollowSession(): void {
  if (typeof indexedDB === 'undefined') return;
  const inbox = openSharedInbox();
  let told: string | null | undefined;
  const follow = () => {
    const state = session.current();
    if (state.kind === 'restoring') return;
    const accountId = state.kind === 'signed-in' ? state.user.id : null;
    if (accountId === told) return;
    told = accountId;
    void (accountId === null ? inbox.signedOut() : inbox.signedIn(accountId)).catch(() => undefined);
  };
  session.subscribe(follow);
  follow();
}
