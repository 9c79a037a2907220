import type { TokenResponse } from '../../contract/identity-responses.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { OwnerService } from './owner.ts';
import type { SessionService } from './sessions.ts';

const SESSION_KEY = 'desktop_session_id';

/**
 * The owner at the machine: the desktop app's window signs in as the owner without a
 * password and without waiting for approval. This trust comes only through the process that
 * started the server (RunningServer.localOwnerSession), never from a request: no route calls
 * this, and an address (even 127.0.0.1) earns nothing, since any local program or a proxy
 * could send from there.
 */
export class LocalOwnerService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
    private readonly owners: OwnerService,
  ) {}

  /**
   * A fresh token pair for the owner (the account first-run setup made, see OwnerService), in
   * a session named for the desktop app. The desktop's previous session ends, so reopening the
   * window never piles sessions up. Null before first-run setup: the window then shows setup.
   */
  open(): TokenResponse | null {
    const { store } = this.deps;
    const owner = this.owners.owner();
    if (!owner || owner.disabled) return null;
    const previous = store.meta.get<string>(SESSION_KEY);
    if (previous !== undefined) this.sessions.end(previous, 'signed_out');
    const session = this.sessions.open(
      owner,
      { ip: null, userAgent: 'Hearth desktop app' },
      { device_name: 'This PC (Hearth app)', platform: 'desktop' },
      'active',
    );
    store.meta.put(SESSION_KEY, session.id);
    return this.sessions.issueTokens(session, owner);
  }
}
