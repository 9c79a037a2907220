import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Decrypter, Encrypter } from 'age-encryption';
import { generateIdentity, identityToRecipient, publicKeyOf, recipientBytes, x25519 } from '../../src/store/data-dir/age-keys.ts';
import { x25519 as portableX25519 } from '@noble/curves/ed25519.js';
import { loadPortableAead, nativeAead } from '../../src/store/archives/age-aead.ts';
import { encodeHeader, hkdf } from '../../src/store/archives/age-header.ts';
import { sealChunk } from '../../src/store/archives/age-stream.ts';
import { decrypted, encrypted, opened, sealed } from '../../src/store/archives/age-streams.ts';
import { wrapFileKey } from '../../src/store/archives/age-x25519.ts';
import { ArchiveFileDamaged } from '../../src/store/archives/archive-errors.ts';
import { makeTempDir } from '../helpers/server.ts';
import { missingTool } from '../helpers/skip.ts';

/**
 * The age files Hearth writes and reads with Node's own crypto, held against the reference
 * `age` tool both ways (a person restores by hand with it, docs/backup-format.md) and against
 * the JavaScript library earlier releases wrote backups with.
 */
const KiB = 1024;
const SIZES = [0, 1, 64 * KiB - 1, 64 * KiB, 64 * KiB + 1, 128 * KiB, 3 * 1024 * KiB + 17];
const missing = missingTool('age', 'age');

/** A stream of `bytes` in pieces that never line up with age's 64 KiB chunks. */
async function* inPieces(bytes: Buffer, sizes = [1000, 70_000, 1, 65_552]): AsyncGenerator<Buffer> {
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + n);
    at += n;
  }
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of chunks) out.push(Buffer.from(chunk));
  return Buffer.concat(out);
}

const ours = (plain: Buffer, recipient: string) => collect(encrypted(inPieces(plain), recipient));
const readable = (bytes: Buffer, pieces?: number[]) => Object.assign(inPieces(bytes, pieces), { destroy() {} });
const decrypt = (file: Buffer, identity: string, pieces?: number[]) => collect(decrypted(readable(file, pieces), identity));

async function refused(file: Buffer, identity: string, why: string): Promise<void> {
  await assert.rejects(decrypt(file, identity), ArchiveFileDamaged, why);
}

describe('age files with node:crypto', { skip: missing ?? false }, () => {
  let dir: string;
  let identity: string;
  let recipient: string;
  let keyFile: string;
  before(async () => {
    dir = await makeTempDir('hearth-age-');
    identity = generateIdentity();
    recipient = identityToRecipient(identity);
    keyFile = path.join(dir, 'kit.txt');
    fs.writeFileSync(keyFile, `# a kit\n${identity}\n`);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('our keys are age keys: age-keygen finds the same public key, and ours reads age-keygen’s', () => {
    assert.match(identity, /^AGE-SECRET-KEY-1[0-9A-Z]{58}$/);
    assert.equal(execFileSync('age-keygen', ['-y', keyFile], { encoding: 'utf8' }).trim(), recipient);
    const theirs = path.join(dir, 'theirs.txt');
    execFileSync('age-keygen', ['-o', theirs], { stdio: 'ignore' });
    const theirIdentity = fs.readFileSync(theirs, 'utf8').match(/AGE-SECRET-KEY-1\w+/)![0];
    assert.equal(identityToRecipient(theirIdentity), execFileSync('age-keygen', ['-y', theirs], { encoding: 'utf8' }).trim());
    assert.throws(
      () => identityToRecipient(theirIdentity.slice(0, -1) + (theirIdentity.endsWith('Q') ? 'P' : 'Q')),
      'a typo fails the checksum',
    );
  });

  for (const size of SIZES) {
    test(`${size} bytes: what we encrypt, age -d opens; what age -r encrypts, we open`, async () => {
      const plain = crypto.randomBytes(size);
      const file = path.join(dir, `ours-${size}.age`);
      fs.writeFileSync(file, await ours(plain, recipient));
      const byAge = execFileSync('age', ['-d', '-i', keyFile, file], { maxBuffer: 64 * 1024 * KiB });
      assert.ok(byAge.equals(plain), 'age -d gives the bytes back');

      const theirs = execFileSync('age', ['-r', recipient], { input: plain, maxBuffer: 64 * 1024 * KiB });
      assert.ok((await decrypt(theirs, identity)).equals(plain), 'ours opens age’s file');
      assert.equal(fs.statSync(file).size, theirs.length, 'the same layout: one stanza, the same chunks');
      assert.ok((await decrypt(theirs, identity, [65_552])).equals(plain), 'read in pieces the size of a sealed chunk');
      assert.ok((await decrypt(theirs, identity, [7])).equals(plain), 'read in small pieces');
    });
  }

  test('files the earlier JavaScript library wrote open, and it opens ours', async () => {
    for (const size of SIZES) {
      const plain = crypto.randomBytes(size);
      const encrypter = new Encrypter();
      encrypter.addRecipient(recipient);
      const theirs = Buffer.from(await encrypter.encrypt(plain));
      assert.ok((await decrypt(theirs, identity)).equals(plain), `${size} bytes by the library`);
      const decrypter = new Decrypter();
      decrypter.addIdentity(identity);
      assert.ok(
        Buffer.from(await decrypter.decrypt(await ours(plain, recipient))).equals(plain),
        `${size} bytes by us, opened by the library`,
      );
    }
  });

  test('a small sealed text (keys.json of a plain backup) opens with age -d and with ours', async () => {
    const text = JSON.stringify({ link: 'ünïcode key ' + 'x'.repeat(70_000) });
    const file = await sealed(text, recipient);
    assert.equal(execFileSync('age', ['-d', '-i', keyFile], { input: file, encoding: 'utf8', maxBuffer: 1024 * KiB }), text);
    assert.equal(await opened(file, identity), text);
  });

  test('a changed header, a changed or moved chunk, a cut or grown file and another key are refused', async () => {
    const plain = crypto.randomBytes(3 * 64 * KiB + 100);
    const file = await ours(plain, recipient);
    const headerEnd = file.indexOf('\n--- ') + 1 + 4 + 43 + 1;
    const payload = headerEnd + 16;
    const sealedChunk = 64 * KiB + 16;
    const flipped = (at: number) => {
      const copy = Buffer.from(file);
      copy[at] = copy[at]! ^ 0x01;
      return copy;
    };
    await refused(flipped(3), identity, 'the version line');
    await refused(flipped(file.indexOf('X25519') + 10), identity, 'the ephemeral share');
    await refused(flipped(file.indexOf('\n', file.indexOf('X25519')) + 5), identity, 'the wrapped file key');
    await refused(flipped(headerEnd - 10), identity, 'the header MAC');
    await refused(flipped(headerEnd + 3), identity, 'the payload nonce');
    await refused(flipped(payload + 100), identity, 'the first chunk');
    await refused(flipped(payload + sealedChunk + 64 * KiB + 5), identity, 'a tag');
    await refused(flipped(file.length - 1), identity, 'the last chunk');
    await refused(file.subarray(0, payload + 3 * sealedChunk), identity, 'cut at a chunk boundary: the last chunk is missing');
    await refused(file.subarray(0, file.length - 1), identity, 'cut by a byte');
    await refused(file.subarray(0, headerEnd - 5), identity, 'cut in the header');
    await refused(file.subarray(0, payload - 5), identity, 'cut in the nonce');
    await refused(Buffer.concat([file, file.subarray(payload, payload + sealedChunk)]), identity, 'a chunk appended');
    await refused(Buffer.concat([file, Buffer.from([0])]), identity, 'a byte appended');
    const swapped = Buffer.concat([
      file.subarray(0, payload),
      file.subarray(payload + sealedChunk, payload + 2 * sealedChunk),
      file.subarray(payload, payload + sealedChunk),
      file.subarray(payload + 2 * sealedChunk),
    ]);
    await refused(swapped, identity, 'two chunks swapped');
    await refused(file, generateIdentity(), 'another key');
    await refused(Buffer.from('not an age file at all\n'), identity, 'not an age file');
    await refused(Buffer.alloc(0), identity, 'an empty file');

    // Whatever ours refuses, age refuses too: the same rules.
    const damaged = path.join(dir, 'damaged.age');
    fs.writeFileSync(damaged, Buffer.concat([file, file.subarray(payload, payload + sealedChunk)]));
    assert.throws(() => execFileSync('age', ['-d', '-i', keyFile, damaged], { stdio: 'pipe' }));
  });

  test('a damaged chunk gives none of its bytes: only the chunks before it, each proved', async () => {
    const plain = crypto.randomBytes(3 * 64 * KiB);
    const file = await ours(plain, recipient);
    const payload = file.indexOf('\n--- ') + 1 + 4 + 43 + 1 + 16;
    file[payload + 2 * (64 * KiB + 16) + 1]! ^= 0x80;
    const got: Buffer[] = [];
    await assert.rejects(async () => {
      for await (const chunk of decrypted(readable(file), identity)) got.push(chunk);
    }, ArchiveFileDamaged);
    assert.ok(Buffer.concat(got).equals(plain.subarray(0, 2 * 64 * KiB)));
  });

  test('an empty last chunk after a full one, which no age writer makes, is refused by ours and by age', async () => {
    const fileKey = crypto.randomBytes(16);
    const nonce = crypto.randomBytes(16);
    const payloadKey = hkdf(fileKey, nonce, 'payload');
    const header = encodeHeader([wrapFileKey(fileKey, recipientBytes(recipient))], fileKey);
    const plain = crypto.randomBytes(64 * KiB);
    const made = (...chunks: Buffer[]) => Buffer.concat([header, nonce, ...chunks]);
    const good = made(sealChunk(payloadKey, 0, true, plain));
    assert.ok((await decrypt(good, identity)).equals(plain), 'the same file, written as age writes it, opens');
    const bad = made(sealChunk(payloadKey, 0, false, plain), sealChunk(payloadKey, 1, true, Buffer.alloc(0)));
    await refused(bad, identity, 'an empty last chunk after a full one');
    const file = path.join(dir, 'empty-last.age');
    fs.writeFileSync(file, bad);
    assert.throws(() => execFileSync('age', ['-d', '-i', keyFile, file], { stdio: 'pipe' }));
  });
});

/*
 * The desktop app's server runs in Electron, whose crypto (BoringSSL) has no chacha20-poly1305
 * cipher: there libsodium's WebAssembly ChaCha20-Poly1305 and the JavaScript X25519 stand in
 * (age-aead.ts, age-keys.ts). Everything else is shared, so files are the same when the two agree
 * byte for byte (main/test/app-restore.e2e.test.ts restores an encrypted backup that way).
 */
test('libsodium’s ChaCha20-Poly1305 and the JavaScript X25519 give exactly what Node’s own give, and refuse the same', async () => {
  const portableAead = await loadPortableAead();
  const kept = portableAead.seal(Buffer.alloc(32, 1), Buffer.alloc(12, 2), Buffer.from('kept'));
  const keptCopy = Buffer.from(kept);
  for (const size of [0, 1, 16, 64 * KiB, 64 * KiB + 16, 1024 * KiB]) {
    const key = crypto.randomBytes(32);
    const nonce = crypto.randomBytes(12);
    const plain = crypto.randomBytes(size);
    const sealed = nativeAead.seal(key, nonce, plain);
    assert.deepEqual(portableAead.seal(key, nonce, plain), sealed, `${size} bytes sealed alike`);
    assert.deepEqual(portableAead.open(key, nonce, sealed), plain);
    assert.deepEqual(nativeAead.open(key, nonce, sealed), plain);
    const flipped = Buffer.from(sealed);
    flipped[size === 0 ? 0 : size - 1]! ^= 0x01;
    assert.throws(() => nativeAead.open(key, nonce, flipped));
    assert.throws(() => portableAead.open(key, nonce, flipped));
    assert.throws(() => portableAead.open(key, nonce, sealed.subarray(0, 15)));
    assert.throws(() => nativeAead.open(key, nonce, sealed.subarray(0, 15)));
    assert.throws(() => portableAead.open(crypto.randomBytes(32), nonce, sealed), 'another key');
    assert.deepEqual(Buffer.concat(portableAead.sealParts(key, nonce, plain)), sealed);
  }
  assert.deepEqual(kept, keptCopy, 'what it gave stays as it was while it works on (its WebAssembly memory is not shared out)');
  for (let i = 0; i < 5; i++) {
    const a = crypto.randomBytes(32);
    const b = crypto.randomBytes(32);
    assert.deepEqual(Buffer.from(portableX25519.getPublicKey(a)), publicKeyOf(a));
    assert.deepEqual(Buffer.from(portableX25519.getSharedSecret(a, publicKeyOf(b))), x25519(a, publicKeyOf(b)));
  }
});
