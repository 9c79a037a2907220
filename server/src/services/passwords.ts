import crypto from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const KEY_LENGTH = 32;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;

/**
 * Password hashing with node:crypto scrypt on the thread pool. Concurrency is bounded so a
 * burst of sign-ins cannot exhaust memory (each hash holds 128*N*r bytes) or starve file I/O
 * on the same pool. Hashes are self-describing: `scrypt$N$r$p$salt$key`.
 */
export class PasswordHasher {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly cost: number,
    private readonly concurrency: number,
  ) {}

  async hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await this.derive(password, salt, this.cost, BLOCK_SIZE, PARALLELISM);
    return ['scrypt', this.cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [, n, r, p, salt, key] = parts as [string, string, string, string, string, string];
    const expected = Buffer.from(key, 'base64url');
    const actual = await this.derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  }

  /**
   * Spends the same time as a real verification, so an unknown username cannot be told
   * from a wrong password by the clock.
   */
  async verifyAgainstDummy(password: string): Promise<false> {
    this.dummy ??= this.hash(crypto.randomBytes(16).toString('hex'));
    await this.verify(password, await this.dummy);
    return false;
  }

  /** True when a hash was made with weaker settings than today's and should be redone. */
  needsRehash(stored: string): boolean {
    return stored.split('$')[1] !== String(this.cost);
  }

  private async derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
    await this.acquire();
    try {
      return await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
