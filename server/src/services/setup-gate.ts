import crypto from 'node:crypto';
import { AppError } from '../errors.ts';
import type { ClientInfo, ServiceDeps } from './context.ts';
import { addressKey } from './rate-limiter.ts';

/** Who may run first-run setup over the network, and with what. */
export type SetupDoor = 'open' | 'setup_code' | 'desktop_app';

/**
 * First-run setup makes an admin: whoever gets there first owns the family's server. So a
 * fresh server does not take the first caller from the network.
 *
 * - In the desktop app, setup happens in its window through the app's bridge (a message to
 *   this process, never a request), and the server listens on this PC alone until then:
 *   POST /setup is refused to everyone, this PC included (any local program can send it).
 * - Headless (`npm start`), a request from this PC itself needs nothing, as before; from any
 *   other address it needs the setup code printed where the server was started (8 digits,
 *   new at each start, kept only in memory). Wrong codes count like wrong passwords.
 */
export class SetupGate {
  private readonly code: string | null;
  private codeDigest: Buffer | null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly hostedSetup: boolean,
  ) {
    const needed = deps.store.users.count() === 0 && !hostedSetup;
    this.code = needed ? newSetupCode() : null;
    this.codeDigest = this.code === null ? null : digest(this.code);
  }

  /** The code to print for the owner, once, beside the listening line; null once someone is set up. */
  setupCode(): string | null {
    return this.codeDigest === null ? null : this.code;
  }

  door(client: ClientInfo): SetupDoor {
    if (this.hostedSetup) return 'desktop_app';
    return isThisPc(client) ? 'open' : 'setup_code';
  }

  /** Throws unless this caller may run setup with this code; counts a wrong code as a guess. */
  async admit(client: ClientInfo, code: string | undefined): Promise<void> {
    const door = this.door(client);
    if (door === 'open') return;
    if (door === 'desktop_app') throw new AppError('setup_in_app');
    if (code === undefined || code.trim() === '') throw new AppError('setup_code_required', undefined, { field: 'setup_code' });
    const expected = this.codeDigest;
    const right = await this.deps.rateLimiter.guess(
      // The address is refused after the limit; the code itself only slowed, so guessers on
      // many addresses share one slow line (at most one guess per 10 s once it is busy).
      { limited: [`setup:ip:${addressKey(client.ip)}`], slowed: 'setup:code' },
      async () => expected !== null && crypto.timingSafeEqual(digest(code), expected),
    );
    if (!right) throw new AppError('invalid_setup_code', undefined, { field: 'setup_code' });
  }

  /** Setup is done: the code opens nothing any more. */
  retire(): void {
    this.codeDigest = null;
  }
}

/**
 * The PC itself: a connection from its loopback address, not relayed by a proxy on this PC
 * (a reverse proxy forwards the network's requests from 127.0.0.1). Only 127.0.0.1 and ::1
 * count: they are the addresses a browser on this PC connects from, whatever name it opened.
 */
export function isThisPc(client: ClientInfo): boolean {
  if (client.forwarded === true || client.ip === null) return false;
  const ip = client.ip.replace(/^::ffff:/i, '');
  return ip === '127.0.0.1' || ip === '::1';
}

/** 8 digits as `1234-5678`: read off a screen and typed on a phone. */
function newSetupCode(): string {
  const digits = String(crypto.randomInt(0, 100_000_000)).padStart(8, '0');
  return `${digits.slice(0, 4)}-${digits.slice(4)}`;
}

/** Digits only, so `1234 5678` and `12345678` are the same code; compared as fixed-size digests. */
function digest(code: string): Buffer {
  return crypto.createHash('sha256').update(code.replace(/\D/g, '')).digest();
}
