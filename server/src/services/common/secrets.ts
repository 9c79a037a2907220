import crypto from 'node:crypto';
import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/** Sortable ids: ordering by id is ordering by creation. Ids are not secrets. */
export function newId(): string {
  return nextUlid();
}

/** A bearer secret with 256 bits of randomness (refresh tokens, invite codes, share tokens). */
export function newSecret(bytes = 32): string {
  return crypto.randomBytes(bytes).toString('base64url');
}

/** Secrets are stored as their SHA-256, so a copy of the database opens nothing. */
export function hashSecret(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('base64url');
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A secret people type: Crockford base32 (no I, L, O, U), grouped by dashes.
 * 130 bits of randomness in 26 characters.
 */
export function newTypableSecret(): string {
  const bytes = crypto.randomBytes(26);
  let out = '';
  for (let i = 0; i < 26; i++) {
    out += CROCKFORD[bytes[i]! & 31];
    if (i % 5 === 4 && i < 25) out += '-';
  }
  return out;
}

/** Accepts what a person typed: any case, dashes or spaces, and the letters base32 confuses. */
export function normaliseTypableSecret(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '').replace(/[IL]/g, '1').replace(/O/g, '0');
}

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}
