import crypto from 'node:crypto';
import { AppError } from '../../app-error.ts';
import type { ClientInfo, ServiceDeps } from '../common/context.ts';
import { addressKey } from '../common/rate-limiter.ts';

/** Wrong setup codes from every address together, counted for the bound over all of them. */
const SETUP_ALL = 'setup:code';
/** Wrong codes from all addresses in the window past which only an address's first tries are checked. */
export const SETUP_ALL_MAX = 100;
/** Tries every address has in any window, whatever other addresses did. */
export const SETUP_FREE_TRIES = 3;

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
  private restoring = false;

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

  /** A restore from a backup is under way (RestoreService): setup waits, or its owner would be swapped away. */
  holdForRestore(): void {
    this.restoring = true;
  }

  releaseForRestore(): void {
    this.restoring = false;
  }

  get heldForRestore(): boolean {
    return this.restoring;
  }

  /** Throws unless this caller may run setup (or a restore) with this code; counts a wrong code as a guess. */
  async admit(client: ClientInfo, code: string | undefined): Promise<void> {
    if (this.restoring) throw new AppError('restore_running');
    const door = this.door(client);
    if (door === 'open') return;
    if (door === 'desktop_app') throw new AppError('setup_in_app');
    if (code === undefined || code.trim() === '') throw new AppError('setup_code_required', undefined, { field: 'setup_code' });
    const { rateLimiter } = this.deps;
    const address = addressKey(client.ip);
    const limited = `setup:ip:${address}`;
    // Every address has its own limit and its own wait: one guesser's failures never slow or
    // refuse the owner's phone. (A single slowed line for the code, shared by every address,
    // let anyone on the Wi-Fi keep it full and the owner's setup answering 429.)
    //
    // The bound over all addresses: once SETUP_ALL_MAX wrong codes from anywhere are in the
    // window, an address that has had its first SETUP_FREE_TRIES is refused until the window
    // moves on. So guessers with many addresses get little more than those first tries each
    // (of 10^8 codes, new at each start), and it cannot lock out a patient owner for long:
    // each address, the owner's phone included, always has its first SETUP_FREE_TRIES in any
    // window, and waits at most the window (15 minutes) for the next ones.
    if (rateLimiter.failures(limited) >= SETUP_FREE_TRIES) rateLimiter.check([SETUP_ALL], SETUP_ALL_MAX);
    const expected = this.codeDigest;
    const right = await rateLimiter.guess(
      { limited: [limited], slowed: `setup:wait:${address}` },
      async () => expected !== null && crypto.timingSafeEqual(digest(code), expected),
    );
    if (!right) {
      rateLimiter.fail([SETUP_ALL]);
      throw new AppError('invalid_setup_code', undefined, { field: 'setup_code' });
    }
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
