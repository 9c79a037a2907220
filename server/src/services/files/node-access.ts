import crypto from 'node:crypto';
import { AppError } from '../../app-error.ts';
import type { NodeAccessTokenResponse } from '../../contract/files-responses.ts';
import type { AccessService } from './access.ts';
import type { Actor, ServiceDeps } from '../common/context.ts';
import { safeEqual } from '../common/secrets.ts';
import { withinLifetime } from '../identity/access-tokens.ts';
import type { SessionService } from '../identity/sessions.ts';

/** What a node token says: this session may read this node until then. */
interface NodeClaims {
  sessionId: string;
  nodeId: string;
  expiresAt: number;
}

const MARK = 'n1';

/**
 * Tokens for the URLs a browser loads by itself (a download link, a video's src, a zoomed
 * photo), where no header can be set. Such a URL outlives the page: it sits in the browser's
 * downloads list and history. So the token in it opens one node, for reading, for a few
 * minutes, and only through that node's own URL routes; it is not a session's token, which
 * would open the whole API. It is signed, not stored: minting one costs a hash and no write.
 * Checked on every use: the session must still be signed in (signing out kills it at once)
 * and the routes check the account's access to the node as for any request (losing access to
 * the node kills it too).
 *
 * The contract also lets those routes take the session's own access token in the URL, so a
 * client written to it keeps working: it is accepted there, full scope only, unless the owner
 * turned `session_tokens_in_urls` off. The web app never sends one.
 */
export class NodeAccessService {
  private readonly key: Buffer;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly sessions: SessionService,
    private readonly sessionTokensInUrls: () => boolean,
  ) {
    this.key = deps.accessTokens.derivedKey('node-url-token');
  }

  /** A token for `?access_token=` on this node's download, thumbnail, preview and playback copy, for a caller who may read it. */
  mint(actor: Actor, nodeId: string): NodeAccessTokenResponse {
    const node = this.access.node(actor, nodeId, 'read');
    const expiresAt = this.deps.now() + this.deps.config.nodeTokenTtlMs;
    return { access_token: this.sign({ sessionId: actor.sessionId, nodeId: node.id, expiresAt }), expires_at: expiresAt };
  }

  /**
   * The actor behind the token in the URL of one of `nodeId`'s URL routes: a node token made
   * for that node, or (while the owner allows it) a session's full access token; 401 for
   * anything else.
   */
  authenticate(token: string, nodeId: string): Actor {
    const now = this.deps.now();
    const claims = this.verify(token);
    if (claims !== null && claims.nodeId === nodeId && withinLifetime(claims.expiresAt, now, this.deps.config.nodeTokenTtlMs))
      return this.sessions.liveActor(claims.sessionId);
    if (claims === null && this.deps.accessTokens.verify(token, now) !== null) return this.sessionInUrl(token);
    throw new AppError('invalid_token', 'This link has expired, or is not for this file.');
  }

  private sessionInUrl(token: string): Actor {
    if (!this.sessionTokensInUrls()) {
      // The mistake a client makes on a server whose owner turned this off: say how to put it right.
      throw new AppError(
        'invalid_token',
        "A session's access token is not accepted in a URL on this server: use a token from POST /nodes/{id}/access-token.",
      );
    }
    const actor = this.sessions.authenticate(token);
    // A phone still waiting for the owner's approval opens nothing but its own approval status.
    if (actor.scope !== 'full') throw new AppError('invalid_token');
    return actor;
  }

  private sign(claims: NodeClaims): string {
    const body = `${MARK}.${claims.sessionId}.${claims.nodeId}.${claims.expiresAt}`;
    return `${body}.${this.mac(body)}`;
  }

  private verify(token: string): NodeClaims | null {
    const parts = token.split('.');
    if (parts.length !== 5 || parts[0] !== MARK) return null;
    const [, sessionId, nodeId, expiry, mac] = parts as [string, string, string, string, string];
    if (!safeEqual(mac, this.mac(`${MARK}.${sessionId}.${nodeId}.${expiry}`))) return null;
    const expiresAt = Number(expiry);
    if (!Number.isSafeInteger(expiresAt)) return null;
    return { sessionId, nodeId, expiresAt };
  }

  private mac(body: string): string {
    return crypto.createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
