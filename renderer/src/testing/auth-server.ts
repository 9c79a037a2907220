import type { TokenResponse, User } from '../api/types.ts';

export const ANNA: User = {
  id: 'u-anna',
  username: 'anna',
  role: 'member',
  display_name: 'Anna',
  avatar_seed: 'seed',
  must_change_password: false,
  totp_enabled: false,
  phone_start: 'photos',
};

/**
 * The server's refresh route as `fetch` sees it, with its rule: each refresh token is spent
 * once and rotated, and a spent one coming back is taken for theft (401 refresh_token_reused)
 * and ends the session. Answers take a few turns of the event loop, so that a second tab
 * running at the same time gets its chance to read the same token, as over a real network.
 */
export class FakeAuthServer {
  private generation = 0;
  private current: string;
  private readonly spent = new Set<string>();
  private revoked = false;
  /** Refresh tokens as they arrived, in order. */
  readonly refreshes: string[] = [];
  reused = 0;
  /** Set to make the next refreshes find no server. */
  offline = false;

  constructor(readonly sessionId = 's-1') {
    this.current = this.mint('r');
  }

  /** The pair a sign-in would hand out. */
  signIn(lifetimeMs = 15 * 60_000): TokenResponse {
    return this.pair(lifetimeMs);
  }

  get refreshToken(): string {
    return this.current;
  }

  fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    await turns(3);
    if (this.offline) throw new TypeError('fetch failed');
    if (url.endsWith('/auth/refresh')) return this.refresh(JSON.parse(String(init?.body)) as { refresh_token: string });
    return new Response(null, { status: 404 });
  };

  private refresh({ refresh_token: token }: { refresh_token: string }): Response {
    this.refreshes.push(token);
    if (this.spent.has(token)) {
      this.reused += 1;
      this.revoked = true;
      return envelope(401, 'refresh_token_reused', 'This refresh token was already used; the session has been signed out for safety.');
    }
    if (this.revoked || token !== this.current) return envelope(401, 'invalid_refresh_token', 'The refresh token is unknown or expired.');
    this.spent.add(token);
    return Response.json(this.pair(15 * 60_000));
  }

  private pair(lifetimeMs: number): TokenResponse {
    this.current = this.mint('r');
    return {
      access_token: this.mint('a'),
      refresh_token: this.current,
      expires_at: Date.now() + lifetimeMs,
      session_id: this.sessionId,
      user: ANNA,
    };
  }

  private mint(prefix: string): string {
    this.generation += 1;
    return `${prefix}${this.generation}`;
  }
}

function envelope(status: number, code: string, message: string): Response {
  return Response.json({ error: { code, message } }, { status });
}

async function turns(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
