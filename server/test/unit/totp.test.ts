import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as OTPAuth from 'otpauth';
import { matchTotpStep, newTotpSecret, otpauthUrl, totpCodeAt } from '../../src/services/identity/totp.ts';

/** RFC 6238 appendix B: the SHA-1 seed is the ASCII string "12345678901234567890". */
const RFC_SEED_ASCII = '12345678901234567890';
const RFC_SEED_BASE32 = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/** Appendix B, SHA-1 column: time in seconds and the 8-digit code; ours are its last 6 digits. */
const RFC_VECTORS: [seconds: number, eightDigits: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

test('the RFC 6238 seed converts to the base32 secret the TOTP functions take', () => {
  const fromAscii = new OTPAuth.Secret({ buffer: new Uint8Array(Buffer.from(RFC_SEED_ASCII, 'latin1')).buffer }).base32;
  assert.equal(fromAscii, RFC_SEED_BASE32);
});

test('totpCodeAt reproduces every SHA-1 vector of RFC 6238 appendix B (last six digits)', () => {
  for (const [seconds, eight] of RFC_VECTORS) {
    assert.equal(totpCodeAt(RFC_SEED_BASE32, seconds * 1000), eight.slice(-6), `time ${seconds}`);
  }
});

test('matchTotpStep accepts each RFC vector at its own time and names its 30-second step', () => {
  for (const [seconds, eight] of RFC_VECTORS) {
    assert.equal(matchTotpStep(RFC_SEED_BASE32, eight.slice(-6), seconds * 1000), Math.floor(seconds / 30), `time ${seconds}`);
  }
});

test('a code of the previous or next step matches (±1 window) and reports that step; two steps away does not', () => {
  const now = 1111111111 * 1000;
  const step = Math.floor(now / 1000 / 30);
  const codeAt = (offsetSteps: number) => totpCodeAt(RFC_SEED_BASE32, now + offsetSteps * 30_000);
  const window = new Set([codeAt(-1), codeAt(0), codeAt(1)]);
  assert.equal(window.size, 3, 'the codes of the window are distinct for this seed and time');

  assert.equal(matchTotpStep(RFC_SEED_BASE32, codeAt(-1), now), step - 1);
  assert.equal(matchTotpStep(RFC_SEED_BASE32, codeAt(0), now), step);
  assert.equal(matchTotpStep(RFC_SEED_BASE32, codeAt(1), now), step + 1);

  for (const far of [-2, 2]) {
    const code = codeAt(far);
    assert.ok(!window.has(code), `the code ${far} steps away differs from the window's codes`);
    assert.equal(matchTotpStep(RFC_SEED_BASE32, code, now), null, `${far} steps away`);
  }
});

test('matchTotpStep refuses anything that is not exactly six digits, and a wrong six-digit code', () => {
  const now = 59_000;
  for (const code of ['', '28708', '2870822', '94287082', ' 287082', '287082 ', 'abcdef', '28-082']) {
    assert.equal(matchTotpStep(RFC_SEED_BASE32, code, now), null, JSON.stringify(code));
  }
  const window = new Set([-1, 0, 1].map((s) => totpCodeAt(RFC_SEED_BASE32, now + s * 30_000)));
  const wrong = ['000000', '111111', '999999'].find((c) => !window.has(c))!;
  assert.equal(matchTotpStep(RFC_SEED_BASE32, wrong, now), null);
});

test('a new secret is 160 bits of base32 and its otpauth URL names SHA1, 6 digits, 30 s and the issuer', () => {
  const a = newTotpSecret();
  const b = newTotpSecret();
  assert.match(a, /^[A-Z2-7]{32}$/);
  assert.notEqual(a, b);
  const url = new URL(otpauthUrl(a, 'alice', 'Family Box'));
  assert.equal(url.protocol, 'otpauth:');
  assert.equal(url.host, 'totp');
  assert.equal(url.searchParams.get('secret'), a);
  assert.equal(url.searchParams.get('algorithm'), 'SHA1');
  assert.equal(url.searchParams.get('digits'), '6');
  assert.equal(url.searchParams.get('period'), '30');
  assert.equal(url.searchParams.get('issuer'), 'Family Box');
  assert.match(decodeURIComponent(url.pathname), /alice/);
});
