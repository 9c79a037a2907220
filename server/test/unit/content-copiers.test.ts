import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { generateIdentity, identityToRecipient } from '../../src/store/data-dir/age-keys.ts';
import { decrypted, encrypted } from '../../src/store/archives/age-streams.ts';
import { ArchiveFileDamaged, SourceUnreadable } from '../../src/store/archives/archive-errors.ts';
import { padded } from '../../src/store/archives/backup-padding.ts';
import { ContentCopiers, CopiersUnavailable } from '../../src/store/archives/content-copiers.ts';
import { headerLength, parseHeader } from '../../src/store/archives/age-header.ts';
import { copyContent, type CopyOrder } from '../../src/store/archives/content-copy.ts';
import { makeTempDir } from '../helpers/server.ts';

/**
 * The worker threads that copy a folder archive's files out (a restore, a check) and in (a
 * backup): the bytes they write and the SHA-256 they answer are those of the content, a damaged
 * file is told as one, a stop stops them, a backup waits its turn when told to, and the
 * descriptors they were lent are still the caller's to close.
 */
const identity = generateIdentity();
/** Whatever this test runs at (a developer may run it under `nice`). */
const serverNice = os.getPriority();
let dir: string;
let copiers: ContentCopiers;

before(async () => {
  dir = await makeTempDir('hearth-copiers-');
  copiers = new ContentCopiers();
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

async function sealedFile(name: string, content: Buffer): Promise<string> {
  const out: Buffer[] = [];
  const plain = (async function* () {
    yield content;
  })();
  for await (const chunk of encrypted(padded(plain, 'zeros'), identityToRecipient(identity))) out.push(chunk);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.concat(out));
  return file;
}

async function copy(file: string, order: Partial<CopyOrder> & { size: number }, signal = new AbortController().signal) {
  const handle = await fs.promises.open(file, 'r');
  let told = 0;
  try {
    const result = await copiers.copy(
      handle,
      { identity, drain: false, target: null, durable: false, headerMac: null, ...order },
      signal,
      (n) => (told += n),
    );
    return { ...result, told, fdStillOpen: (await handle.stat()).isFile() };
  } finally {
    await handle.close();
  }
}

const sha256 = (bytes: Buffer) => crypto.createHash('sha256').update(bytes).digest('hex');
const headerMacOf = (file: string) => {
  const bytes = fs.readFileSync(file);
  return parseHeader(bytes.subarray(0, headerLength(bytes)!)).mac.toString('hex');
};

describe('content copiers', () => {
  test('an encrypted file is written decrypted, without its padding, and its SHA-256 and progress are the content’s', async () => {
    for (const size of [0, 1, 64 * 1024, 64 * 1024 + 1, 9 * 1024 * 1024 + 5]) {
      const content = crypto.randomBytes(size);
      const file = await sealedFile(`sealed-${size}`, content);
      const target = path.join(dir, `out-${size}`);
      const result = await copy(file, { size, target, durable: true });
      assert.equal(result.size, size);
      assert.equal(result.sha256, sha256(content));
      assert.equal(result.told, size);
      assert.ok(result.fdStillOpen, 'the lent descriptor is still open once the copy answered');
      assert.ok(fs.readFileSync(target).equals(content));
      assert.equal(fs.statSync(target).mode & 0o777, 0o600);
    }
    assert.ok(copiers.threadCount >= 1, 'the copies ran on worker threads');
    if (process.platform === 'linux') {
      // Field 19 of a thread's stat is its nice value: the copying threads yield to the server's.
      const nice = fs
        .readdirSync('/proc/self/task')
        .map((tid) => Number(fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]));
      if (serverNice < 10) assert.ok(nice.includes(10), `a thread at nice 10 among ${nice.join(', ')}`);
      assert.equal(os.getPriority(), serverNice, 'the server itself keeps its priority');
    }
  });

  test('a plain archive’s file is copied whole, and an existing target is never written over', async () => {
    const content = crypto.randomBytes(300_000);
    const file = path.join(dir, 'plain');
    fs.writeFileSync(file, content);
    const target = path.join(dir, 'plain-out');
    assert.equal((await copy(file, { identity: null, size: content.length, target })).sha256, sha256(content));
    assert.ok(fs.readFileSync(target).equals(content));
    await assert.rejects(copy(file, { identity: null, size: content.length, target }), { code: 'EEXIST' });
    assert.ok(fs.readFileSync(target).equals(content));
  });

  test('a flipped byte is ArchiveFileDamaged, in the content and, with drain, in the padding', async () => {
    const content = crypto.randomBytes(200_000);
    const file = await sealedFile('damaged', content);
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 40000]! ^= 1;
    fs.writeFileSync(file, bytes);
    await assert.rejects(copy(file, { size: content.length, drain: true }), ArchiveFileDamaged);
    const early = Buffer.from(fs.readFileSync(file));
    early[300]! ^= 1;
    fs.writeFileSync(file, early);
    await assert.rejects(copy(file, { size: content.length }), ArchiveFileDamaged);
  });

  test('a file with the header MAC its manifest records is proved without hashing; the same content under another header is damaged, on a thread and on the event loop', async () => {
    const content = crypto.randomBytes(300_000);
    const file = await sealedFile('proved', content);
    const twin = await sealedFile('twin', content);
    const mac = headerMacOf(file);
    assert.notEqual(headerMacOf(twin), mac, 'every file has its own file key, so its own MAC');
    const onLoop = async (from: string, order: Partial<CopyOrder>) =>
      copyContent(
        fs.createReadStream(from),
        { identity, size: content.length, drain: false, target: null, durable: false, headerMac: null, ...order },
        new AbortController().signal,
        () => {},
      );

    const target = path.join(dir, 'proved-out');
    const proved = await copy(file, { size: content.length, target, headerMac: mac });
    assert.equal(proved.sha256, null, 'not hashed: the header and the payload prove it');
    assert.equal(proved.size, content.length);
    assert.equal(proved.headerMac, mac);
    assert.ok(fs.readFileSync(target).equals(content));
    assert.equal((await copy(file, { size: content.length, drain: true, headerMac: mac })).sha256, null);
    assert.deepEqual(await onLoop(file, { headerMac: mac }), { size: content.length, sha256: null, headerMac: mac });
    // Without a MAC to hold it to, the file is hashed, and its own MAC told (for a manifest to record).
    assert.deepEqual(await onLoop(file, {}), { size: content.length, sha256: sha256(content), headerMac: mac });
    assert.equal((await copy(file, { size: content.length })).headerMac, mac);

    await assert.rejects(copy(twin, { size: content.length, headerMac: mac }), ArchiveFileDamaged);
    await assert.rejects(onLoop(twin, { headerMac: mac }), ArchiveFileDamaged);
    // A header that holds the recorded MAC but was moved onto another file's payload: the payload does not open.
    const spliced = Buffer.concat([
      fs.readFileSync(file).subarray(0, headerLength(fs.readFileSync(file))!),
      fs.readFileSync(twin).subarray(headerLength(fs.readFileSync(twin))!),
    ]);
    fs.writeFileSync(path.join(dir, 'spliced'), spliced);
    await assert.rejects(copy(path.join(dir, 'spliced'), { size: content.length, headerMac: mac }), ArchiveFileDamaged);
  });

  test('the wrong key is ArchiveFileDamaged, and a stop ends the copy with an AbortError', async () => {
    const content = crypto.randomBytes(40 * 1024 * 1024);
    const file = await sealedFile('large', content);
    await assert.rejects(copy(file, { size: content.length, identity: generateIdentity() }), ArchiveFileDamaged);
    const stop = new AbortController();
    const copying = copy(file, { size: content.length, target: path.join(dir, 'stopped') }, stop.signal);
    setTimeout(() => stop.abort(), 5);
    await assert.rejects(copying, { name: 'AbortError' });
    // The next copy runs on a thread that is still there (or a new one).
    assert.equal((await copy(file, { size: content.length })).sha256, sha256(content));
  });
});

describe('content copiers, into the archive', () => {
  async function store(content: Buffer, recipient: string | null, pace?: () => Promise<void>) {
    const sourceFile = path.join(dir, `source-${crypto.randomUUID()}`);
    fs.writeFileSync(sourceFile, content);
    const targetFile = path.join(dir, `stored-${crypto.randomUUID()}`);
    const source = await fs.promises.open(sourceFile, 'r');
    const target = await fs.promises.open(targetFile, 'wx');
    let told = 0;
    try {
      const result = await copiers.store(
        source,
        target,
        { recipient, filler: 'zeros' },
        new AbortController().signal,
        (n) => (told += n),
        pace,
      );
      assert.ok((await source.stat()).isFile() && (await target.stat()).isFile(), 'both descriptors are still open');
      return { ...result, told, stored: fs.readFileSync(targetFile) };
    } finally {
      await source.close();
      await target.close();
    }
  }

  test('a file is stored encrypted and padded, and decrypts to itself; its SHA-256 is the content’s', async () => {
    for (const size of [0, 1, 64 * 1024, 3 * 1024 * 1024 + 7]) {
      const content = crypto.randomBytes(size);
      const result = await store(content, identityToRecipient(identity));
      assert.equal(result.size, size);
      assert.equal(result.sha256, sha256(content));
      assert.equal(result.told, size);
      assert.equal(result.storedSize, result.stored.length);
      assert.ok(result.stored.length > size, 'sealed and padded');
      const chunks: Buffer[] = [];
      const asStream = (async function* () {
        yield result.stored;
      })();
      for await (const chunk of decrypted(asStream, identity)) chunks.push(chunk);
      assert.ok(Buffer.concat(chunks).subarray(0, size).equals(content));
    }
  });

  test('a plain archive stores the bytes as they are', async () => {
    const content = crypto.randomBytes(1_000_000);
    const result = await store(content, null);
    assert.ok(result.stored.equals(content));
    assert.equal(result.storedSize, content.length);
  });

  test('a paced copy asks for its turn as it goes, and waits for it', async () => {
    const content = crypto.randomBytes(5 * 1024 * 1024);
    let turns = 0;
    const result = await store(content, identityToRecipient(identity), async () => {
      turns += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    assert.equal(result.sha256, sha256(content));
    assert.ok(turns >= 4, `asked ${turns} times for 5 MiB`);
  });

  test('a file that cannot be read is SourceUnreadable, not the archive’s fault', async () => {
    const folder = path.join(dir, 'a-folder');
    fs.mkdirSync(folder);
    const source = await fs.promises.open(folder, 'r');
    const target = await fs.promises.open(path.join(dir, 'never'), 'wx');
    try {
      await assert.rejects(
        copiers.store(source, target, { recipient: null, filler: 'zeros' }, new AbortController().signal, () => {}),
        (error: unknown) =>
          error instanceof SourceUnreadable &&
          /EISDIR/.test(String((error.cause as Error).message) + (error.cause as NodeJS.ErrnoException).code),
      );
    } finally {
      await source.close();
      await target.close();
    }
  });
});

describe('content copiers warmed before a restore', () => {
  test('warm starts as many threads as a copy would use before any file, and the copies that follow run on them', async () => {
    const warmed = new ContentCopiers();
    const most = Math.max(1, Math.min(4, os.availableParallelism()));
    assert.equal(warmed.threadCount, 0);
    warmed.warm();
    assert.equal(warmed.threadCount, most, 'started before the first file');
    warmed.warm();
    assert.equal(warmed.threadCount, most, 'warming again starts no more');
    const content = crypto.randomBytes(300_000);
    const file = await sealedFile('warmed', content);
    const results = await Promise.all(
      Array.from({ length: most }, async (_, i) => {
        const handle = await fs.promises.open(file, 'r');
        try {
          const target = path.join(dir, `warmed-out-${i}`);
          await warmed.copy(
            handle,
            { identity, size: content.length, drain: false, target, durable: false, headerMac: null },
            new AbortController().signal,
            () => {},
          );
          return fs.readFileSync(target);
        } finally {
          await handle.close();
        }
      }),
    );
    for (const written of results) assert.deepEqual(written, content);
    assert.equal(warmed.threadCount, most, 'no thread was started for the copies');
  });
});

describe('content copiers and the process', () => {
  // What keeps the process up, as Node counts it: a ref'd worker's port shows as a MessagePort.
  const ports = () => process.getActiveResourcesInfo().filter((kind) => kind === 'MessagePort').length;

  test('idle threads keep no process up (a finished restore or check exits at once); a thread with a job does', async () => {
    const own = new ContentCopiers();
    const before = ports();
    own.warm();
    assert.ok(own.threadCount >= 1);
    assert.equal(ports(), before, 'warmed threads waiting for work hold nothing');
    const content = crypto.randomBytes(3 * 1024 * 1024);
    const file = await sealedFile('process', content);
    const handle = await fs.promises.open(file, 'r');
    try {
      let during = -1;
      const copying = own.copy(
        handle,
        { identity, size: content.length, drain: false, target: null, durable: false, headerMac: null },
        new AbortController().signal,
        () => (during = Math.max(during, ports())),
      );
      during = Math.max(during, ports());
      assert.equal((await copying).sha256, sha256(content));
      assert.ok(during > before, 'the job kept the process up while it ran');
    } finally {
      await handle.close();
    }
    assert.equal(ports(), before, 'once the job answered, the threads hold nothing again');
  });
});

describe('content copiers where no thread can start', () => {
  test('a thread whose code cannot load makes every copy answer CopiersUnavailable (the caller copies on the event loop)', async () => {
    const missing = path.join(dir, 'no-such-worker.js');
    const broken = new ContentCopiers(() => new Worker(missing));
    const file = path.join(dir, 'for-broken');
    fs.writeFileSync(file, crypto.randomBytes(1000));
    for (let attempt = 0; attempt < 2; attempt++) {
      const handle = await fs.promises.open(file, 'r');
      try {
        await assert.rejects(
          broken.copy(
            handle,
            { identity: null, size: 1000, drain: false, target: null, durable: false, headerMac: null },
            new AbortController().signal,
            () => {},
          ),
          CopiersUnavailable,
        );
      } finally {
        await handle.close();
      }
    }
    assert.equal(broken.threadCount, 0);
  });

  test('warming where no thread can start leaves copies to the event loop as before', async () => {
    const broken = new ContentCopiers(() => new Worker(path.join(dir, 'no-such-worker.js')));
    broken.warm();
    const handle = await fs.promises.open(await sealedFile('for-broken-warm', crypto.randomBytes(10)), 'r');
    try {
      await assert.rejects(
        broken.copy(
          handle,
          { identity, size: 10, drain: false, target: null, durable: false, headerMac: null },
          new AbortController().signal,
          () => {},
        ),
        CopiersUnavailable,
      );
    } finally {
      await handle.close();
    }
    // Each warmed thread goes as its own failure arrives.
    for (const deadline = Date.now() + 5_000; broken.threadCount > 0 && Date.now() < deadline;) await sleep(10);
    assert.equal(broken.threadCount, 0);
    broken.warm();
    assert.equal(broken.threadCount, 0, 'once known unable, no thread is tried again');
  });
});
