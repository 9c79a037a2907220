import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../../app-error.ts';

/** Any password Hearth takes (an account's, a link's): 10 to 256 characters. */
export function checkPassword(password: string, field = 'password'): void {
  const length = [...password].length;
  if (length < 10 || length > 256) throw new AppError('weak_password', undefined, { field });
}

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/** How many hashes may wait for a slot, in all and for one client address. */
export interface HashQueueLimits {
  maxWaiting: number;
  maxWaitingPerAddress: number;
}

/** How long a hash counts against its address's place in the line. */
const SERVED_WINDOW_MS = 15 * 60_000;

const UNBOUNDED: HashQueueLimits = { maxWaiting: Infinity, maxWaitingPerAddress: Infinity };

/**
 * Password hashing with node:crypto scrypt on the thread pool. Concurrency is bounded so a
 * burst of sign-ins cannot exhaust memory (each hash holds 128*N*r bytes) or starve file I/O
 * on the same pool. The line of hashes waiting for a slot is bounded too, in all and per
 * client address: a flood of bogus sign-ins is refused at the door (503 `busy`, 429 for one
 * address) instead of making the owner's real sign-in wait behind it. The line is fair:
 * an address that had fewer hashes in the last 15 minutes goes ahead of one that had more, so
 * guessers on many addresses, each already refused a few times, do not stand in front of
 * someone signing in for the first time. Setup, registration, sign-in, link passwords and
 * password changes all share this one line.
 * Hashes are self-describing: `scrypt$N$r$p$salt$key`.
 */
export class PasswordHasher {
  private running = 0;
  /** Ordered by `served` (hashes the address had lately), then by arrival. */
  private readonly waiting: { address: string | undefined; served: number; start: () => void }[] = [];
  private readonly servedLately = new Map<string, { count: number; until: number }>();
  /** Recent time of one hash, for an honest Retry-After. */
  private typicalMs = 200;

  constructor(
    private readonly cost: number,
    private readonly concurrency: number,
    private readonly queue: HashQueueLimits = UNBOUNDED,
  ) {}

  /** What one hash takes lately (the time of a guess's check, for the rate limiter's bound on holding it). */
  expectedMs(): number {
    return this.typicalMs;
  }

  /** `address` is the client's address key, when a request from outside asked for the hash. */
  async hash(password: string, address?: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await this.derive(password, salt, this.cost, BLOCK_SIZE, PARALLELISM, address);
    return ['scrypt', this.cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  /** `signal` ends the wait for a free slot (the hash then never runs); a hash under way runs to its end. */
  async verify(password: string, stored: string, address?: string, signal?: AbortSignal): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
    const expected = Buffer.from(key, 'base64url');
    const actual = await this.derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p), address, signal);
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  }

  /**
   * Spends the same time as a real verification, so an unknown username cannot be told
   * from a wrong password by the clock. The stored value is random: no hash is needed to make it.
   */
  async verifyAgainstDummy(password: string, address?: string, signal?: AbortSignal): Promise<false> {
    const random = (bytes: number) => crypto.randomBytes(bytes).toString('base64url');
    await this.verify(password, ['scrypt', this.cost, BLOCK_SIZE, PARALLELISM, random(16), random(KEY_LENGTH)].join('$'), address, signal);
    return false;
  }

  /** True when a hash was made with weaker settings than today's and should be redone. */
  needsRehash(stored: string): boolean {
    return stored.split('$')[1] !== String(this.cost);
  }

  private async derive(
    password: string,
    salt: Buffer,
    n: number,
    r: number,
    p: number,
    address: string | undefined,
    signal?: AbortSignal,
  ): Promise<Buffer> {
    await this.acquire(address, signal);
    const started = performance.now();
    try {
      return await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
    } finally {
      this.typicalMs = 0.8 * this.typicalMs + 0.2 * (performance.now() - started);
      this.release();
    }
  }

  private acquire(address: string | undefined, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.concurrency) {
      this.running++;
      this.countServed(address);
      return Promise.resolve();
    }
    if (this.waiting.length >= this.queue.maxWaiting) {
      const drainMs = (this.waiting.length / this.concurrency + 1) * this.typicalMs;
      throw new AppError('busy', undefined, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(drainMs / 1000))) } });
    }
    if (address !== undefined && this.waitingFrom(address) >= this.queue.maxWaitingPerAddress) {
      throw new AppError('rate_limited', 'Too many requests from this address at once. Try again in a moment.', {
        headers: { 'Retry-After': '1' },
      });
    }
    const served = address === undefined ? 0 : (this.servedLately.get(address)?.count ?? 0);
    return new Promise((start, reject) => {
      const behind = this.waiting.findIndex((entry) => entry.served > served);
      const leave = () => {
        const at = this.waiting.indexOf(entry);
        if (at !== -1) this.waiting.splice(at, 1);
        reject(signal!.reason);
      };
      const entry = {
        address,
        served,
        start: () => {
          signal?.removeEventListener('abort', leave);
          this.countServed(address);
          start();
        },
      };
      if (behind === -1) this.waiting.push(entry);
      else this.waiting.splice(behind, 0, entry);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  private countServed(address: string | undefined): void {
    if (address === undefined) return;
    const now = Date.now();
    const entry = this.servedLately.get(address);
    if (entry && entry.until > now) entry.count++;
    else this.servedLately.set(address, { count: 1, until: now + SERVED_WINDOW_MS });
    if (this.servedLately.size > 10_000) {
      for (const [key, value] of this.servedLately) if (value.until <= now) this.servedLately.delete(key);
      // Forgetting who was served only costs fairness for a while, never correctness.
      if (this.servedLately.size > 10_000) this.servedLately.clear();
    }
  }

  private waitingFrom(address: string): number {
    let count = 0;
    for (const entry of this.waiting) if (entry.address === address) count++;
    return count;
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.start();
    else this.running--;
  }
}
