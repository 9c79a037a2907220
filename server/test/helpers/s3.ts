import crypto from 'node:crypto';
import fs from 'node:fs';
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { ApiClient } from './server.ts';

/**
 * A real S3 server for the tests: s3rver (@20minutes/s3rver, the maintained fork on Koa 3), in
 * its own process on 127.0.0.1 at a free port, keeping its objects in a temp folder, with random
 * keys of its own. It checks every request's SigV4 signature, so wrong keys are refused as a
 * bucket would refuse them. Two corrections, in s3rver-child.mjs: the trailing slash of a
 * bucket-level path in its signature check, and OpenSSL's legacy provider for its listing tokens.
 */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A client with the right keys, for the test to look inside the bucket. */
  client: S3Client;
  /** The s3 body a destination (or a restore) is added with. */
  destination(extra?: object): Record<string, unknown>;
  /** Every object: key and bytes. */
  objects(prefix?: string): Promise<{ key: string; bytes: Buffer }[]>;
  put(key: string, bytes: Buffer): Promise<void>;
  remove(key: string): Promise<void>;
  /**
   * Holds every read of a content object until `release`: `reached` resolves once a read waits
   * there (a restore is then mid-way, at a known point). A folder cannot be held so: a pipe in a
   * backup folder is refused (folder-storage.ts), so a restore held mid-way reads from a bucket.
   */
  holdContent(): Promise<{ reached: Promise<void>; release(): void }>;
  /** The requests it answered so far, by method and what they touched: "HEAD content", "GET list", "PUT content", … */
  requests(): Promise<Record<string, number>>;
  stop(): Promise<void>;
}

export async function startS3(
  options: { bucket?: string; /** Every request waits this long: a far bucket, for benchmarks. */ delayMs?: number } = {},
): Promise<TestS3> {
  const accessKeyId = `HEARTHTEST${crypto.randomBytes(6).toString('hex').toUpperCase()}`;
  const secretAccessKey = crypto.randomBytes(24).toString('base64url');
  const bucket = options.bucket ?? 'family-backups';
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-s3-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', fileURLToPath(new URL('./s3rver-child.mjs', import.meta.url))], {
    env: {
      ...process.env,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_BUCKET: bucket,
      S3_DIRECTORY: directory,
      ...(process.env.S3RVER_LOG && { S3_LOG: '1' }),
      ...(options.delayMs && { S3_DELAY_MS: String(options.delayMs) }),
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let said = '';
  const listeners: ((line: string) => void)[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    said += chunk.toString('utf8');
    const lines = said.split('\n');
    said = lines.pop()!;
    for (const line of lines) for (const listener of [...listeners]) listener(line);
  });
  const nextLine = (match: (line: string) => boolean) =>
    new Promise<string>((resolve) => {
      const listener = (line: string) => {
        if (!match(line)) return;
        listeners.splice(listeners.indexOf(listener), 1);
        resolve(line);
      };
      listeners.push(listener);
    });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the S3 server exited with ${code}: ${output}`)));
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId, secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    bucket,
    accessKeyId,
    secretAccessKey,
    client,
    destination: (extra = {}) => ({
      kind: 's3',
      endpoint,
      bucket,
      access_key_id: accessKeyId,
      secret_access_key: secretAccessKey,
      ...extra,
    }),
    async objects(prefix = '') {
      const out: { key: string; bytes: Buffer }[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const object of page.Contents ?? []) {
          const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key! }));
          out.push({ key: object.Key!, bytes: Buffer.from(await got.Body!.transformToByteArray()) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return out;
    },
    async put(key, bytes) {
      await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },
    async holdContent() {
      const holding = nextLine((line) => line === 'holding');
      child.stdin!.write('hold\n');
      await holding;
      return {
        reached: nextLine((line) => line.startsWith('held ')).then(() => {}),
        release: () => void child.stdin!.write('release\n'),
      };
    },
    async requests() {
      const answer = nextLine((line) => line.startsWith('counted '));
      child.stdin!.write('count\n');
      return JSON.parse((await answer).slice('counted '.length)) as Record<string, number>;
    },
    async stop() {
      client.destroy();
      child.stdin!.end();
      child.kill('SIGTERM');
      await exited;
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

export async function addS3Destination(client: ApiClient, token: string, s3: TestS3, extra: object = {}): Promise<any> {
  const res = await client.post('/admin/backup/destinations', s3.destination(extra), { token });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
