/** An Idempotency-Key: random, from getRandomValues, which exists on plain HTTP pages too (randomUUID does not). */
export function idempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
