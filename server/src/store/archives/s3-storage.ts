import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type {
  AbortMultipartUploadCommandOutput,
  DeleteObjectCommandOutput,
  DeleteObjectsCommandOutput,
  GetObjectCommandOutput,
  HeadObjectCommandOutput,
  ListMultipartUploadsCommandOutput,
  ListObjectsV2CommandOutput,
  PutObjectCommandOutput,
  S3Client,
} from '@aws-sdk/client-s3';
import { archiveParts, isContentFile, isSnapshotFile, SNAPSHOT_ID } from './archive-names.ts';
import { ArchiveUnreachable, ArchiveUnsafe, notThere, type ArchiveStorage } from './archive-storage.ts';
import { ARCHIVE_FOLDER } from './folder-storage.ts';

/** An S3-compatible bucket, as the owner gave it. */
export interface S3Place {
  /** https://s3.example.com (the scheme is kept: a MinIO at a relative's house may be plain http on their network). */
  endpoint: string;
  region: string;
  bucket: string;
  /** '' or a folder-like prefix without slashes at either end. */
  prefix: string;
  access_key_id: string;
  secret_access_key: string;
}

/**
 * The SDK, loaded at the first use of a bucket: a family without an off-site destination never
 * pays its start-up time and memory (nor, on Node 20, its notice about future Node versions).
 */
let loading: Promise<{ s3: typeof import('@aws-sdk/client-s3'); storage: typeof import('@aws-sdk/lib-storage') }> | null = null;
function sdk() {
  loading ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]).then(([s3, storage]) => ({ s3, storage }));
  return loading;
}

/** The requests a backup makes, by the name of their command in the SDK. */
interface Outputs {
  AbortMultipartUploadCommand: AbortMultipartUploadCommandOutput;
  DeleteObjectCommand: DeleteObjectCommandOutput;
  DeleteObjectsCommand: DeleteObjectsCommandOutput;
  GetObjectCommand: GetObjectCommandOutput;
  HeadObjectCommand: HeadObjectCommandOutput;
  ListMultipartUploadsCommand: ListMultipartUploadsCommandOutput;
  ListObjectsV2Command: ListObjectsV2CommandOutput;
  PutObjectCommand: PutObjectCommandOutput;
}
type CommandName = keyof Outputs;
type CommandInput<N extends CommandName> = ConstructorParameters<(typeof import('@aws-sdk/client-s3'))[N]>[0];
type CommandOutput<N extends CommandName> = Outputs[N];

/** Upload parts: two in flight at most, so a run holds about 16 MiB whatever the file's size. */
const PART_SIZE = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * An archive in a bucket, under `<prefix>/hearth-backup/`, with the same layout as on a folder
 * (docs/backup-format.md), so any S3 tool can download it and age decrypt it. There is no
 * rename: an object appears whole when its upload completes (a big file goes up in parts, and
 * a part-way upload is invisible), and the manifest is still written last. Object keys are
 * content ids and snapshot ids, never file names.
 *
 * The prefix may hold objects that are not Hearth's (the bucket is shared, or a person put
 * notes there): clean-ups remove only keys shaped as Hearth makes them (archive-names.ts), and
 * leave everything else where it is.
 */
export class S3Storage implements ArchiveStorage {
  private clientMade: Promise<S3Client> | null = null;
  private readonly root: string;
  private readonly host: string;

  constructor(private readonly s3: S3Place) {
    this.root = `${s3.prefix ? `${s3.prefix}/` : ''}${ARCHIVE_FOLDER}/`;
    this.host = hostOf(s3.endpoint);
  }

  private client(): Promise<S3Client> {
    const s3 = this.s3;
    this.clientMade ??= sdk().then(
      ({ s3: { S3Client } }) =>
        new S3Client({
          endpoint: s3.endpoint,
          region: s3.region,
          // Path-style (endpoint/bucket/key) works with every S3-compatible service (MinIO, Garage, B2, Wasabi, AWS).
          forcePathStyle: true,
          credentials: { accessKeyId: s3.access_key_id, secretAccessKey: s3.secret_access_key },
          // Checksums only where S3 requires them: many S3-compatible services refuse the SDK's newer default trailers.
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
          maxAttempts: 3,
          requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
        }),
    );
    return this.clientMade;
  }

  /** Sends one request, with the SDK's command made from its module by name. */
  private async send<N extends CommandName>(
    name: N,
    input: CommandInput<N>,
    options?: { abortSignal?: AbortSignal },
  ): Promise<CommandOutput<N>> {
    const [{ s3 }, client] = await Promise.all([sdk(), this.client()]);
    const Command = s3[name] as unknown as new (input: CommandInput<N>) => Parameters<S3Client['send']>[0];
    return (await client.send(new Command(input), options)) as CommandOutput<N>;
  }

  get place(): string {
    return `s3://${this.s3.bucket}${this.s3.prefix ? `/${this.s3.prefix}` : ''}`;
  }

  /**
   * Lists the archive's place (proves the endpoint, the keys and the bucket); when adding, also
   * writes and removes a probe, since a run must write, and retention must delete.
   */
  async prepare(create: boolean): Promise<void> {
    const listed = await this.call(() => this.send('ListObjectsV2Command', { Bucket: this.s3.bucket, Prefix: this.root, MaxKeys: 1 }));
    if (create) {
      const probe = `${this.root}.write-check-${crypto.randomBytes(6).toString('hex')}`;
      await this.call(() => this.send('PutObjectCommand', { Bucket: this.s3.bucket, Key: probe, Body: Buffer.alloc(0), ContentLength: 0 }));
      await this.call(() => this.send('DeleteObjectCommand', { Bucket: this.s3.bucket, Key: probe }));
    } else if ((listed.KeyCount ?? 0) === 0) {
      throw new ArchiveUnreachable('missing', null, `There is no Hearth backup in ${this.place} at ${this.host}.`, 'prefix');
    }
  }

  async readSmall(relative: string): Promise<Buffer | null> {
    try {
      const got = await this.send('GetObjectCommand', { Bucket: this.s3.bucket, Key: this.key(relative) });
      return Buffer.from(await got.Body!.transformToByteArray());
    } catch (error) {
      if (isNotFound(error)) return null;
      throw this.failure(error);
    }
  }

  async writeSmall(relative: string, text: string): Promise<void> {
    await this.call(() =>
      this.send('PutObjectCommand', { Bucket: this.s3.bucket, Key: this.key(relative), Body: text, ContentType: 'text/plain' }),
    );
  }

  async sizeOf(relative: string): Promise<number | null> {
    try {
      return (await this.send('HeadObjectCommand', { Bucket: this.s3.bucket, Key: this.key(relative) })).ContentLength ?? 0;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw this.failure(error);
    }
  }

  /** Only Hearth's content names: anything else under content/ is not a file a snapshot lists. */
  async contentSizes(): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    for await (const page of this.pages(`${this.root}content/`))
      for (const object of page.Contents ?? []) {
        const relative = object.Key!.slice(this.root.length);
        if (isContentFile(relative)) sizes.set(relative, object.Size ?? 0);
      }
    return sizes;
  }

  async snapshotIds(): Promise<string[]> {
    const base = `${this.root}snapshots/`;
    const ids: string[] = [];
    for await (const page of this.pages(base, '/'))
      for (const common of page.CommonPrefixes ?? []) if (common.Prefix) ids.push(common.Prefix.slice(base.length).replace(/\/$/, ''));
    return ids.filter((id) => SNAPSHOT_ID.test(id));
  }

  /** Nothing to make: a bucket has no folders, a snapshot exists through its objects. */
  async startSnapshot(): Promise<void> {}

  async put(body: AsyncIterable<Uint8Array>, relative: string, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    const [{ storage }, client] = await Promise.all([sdk(), this.client()]);
    const upload = new storage.Upload({
      client,
      params: { Bucket: this.s3.bucket, Key: this.key(relative), Body: Readable.from(body), ContentType: 'application/octet-stream' },
      partSize: PART_SIZE,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    const stop = () => void upload.abort().catch(() => {});
    signal.addEventListener('abort', stop, { once: true });
    try {
      await upload.done();
    } catch (error) {
      if (signal.aborted) throw signal.reason ?? error;
      throw this.failure(error);
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }

  async openRead(relative: string, signal: AbortSignal): Promise<Readable> {
    try {
      const got = await this.send(
        'GetObjectCommand',
        { Bucket: this.s3.bucket, Key: this.key(relative) },
        {
          abortSignal: signal,
        },
      );
      return got.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw notThere(relative);
      if (signal.aborted) throw error;
      throw this.failure(error);
    }
  }

  /** Only a snapshot Hearth made (its id), and of it only Hearth's own files. */
  async removeSnapshot(id: string, manifest: string): Promise<void> {
    if (!SNAPSHOT_ID.test(id)) return;
    await this.call(() => this.send('DeleteObjectCommand', { Bucket: this.s3.bucket, Key: this.key(`snapshots/${id}/${manifest}`) }));
    const keys: string[] = [];
    for await (const page of this.pages(`${this.root}snapshots/${id}/`))
      for (const object of page.Contents ?? []) if (isSnapshotFile(object.Key!.slice(this.root.length), id)) keys.push(object.Key!);
    await this.removeKeys(keys);
  }

  async removeContentExcept(kept: ReadonlySet<string>): Promise<void> {
    const garbage: string[] = [];
    for await (const page of this.pages(`${this.root}content/`))
      for (const object of page.Contents ?? []) {
        const relative = object.Key!.slice(this.root.length);
        if (isContentFile(relative) && !kept.has(relative)) garbage.push(object.Key!);
      }
    await this.removeKeys(garbage);
  }

  /** Uploads in parts a killed run left behind (Hearth's keys only): invisible, but a bucket bills their bytes. */
  async clearUnfinished(): Promise<void> {
    let uploads;
    try {
      uploads = await this.send('ListMultipartUploadsCommand', { Bucket: this.s3.bucket, Prefix: this.root });
    } catch {
      // Some S3-compatible services do not list uploads; their own lifecycle rules clear them.
      return;
    }
    for (const upload of uploads.Uploads ?? []) {
      if (!isHearthKey(upload.Key?.slice(this.root.length) ?? '')) continue;
      await this.send('AbortMultipartUploadCommand', { Bucket: this.s3.bucket, Key: upload.Key!, UploadId: upload.UploadId! }).catch(
        () => {},
      );
    }
  }

  /** A name that could lead out of the archive (from a tampered manifest: "..", which some S3 services resolve) is refused. */
  private key(relative: string): string {
    if (archiveParts(relative) === null)
      throw new ArchiveUnsafe(
        ARCHIVE_FOLDER,
        `The backup in ${this.place} names a file Hearth never makes (someone changed it), so Hearth did not read it.`,
      );
    return `${this.root}${relative}`;
  }

  private async removeKeys(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += 1000) {
      const batch = keys.slice(i, i + 1000);
      const answer = await this.call(() =>
        this.send('DeleteObjectsCommand', { Bucket: this.s3.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
      );
      const refused = answer.Errors?.[0];
      if (refused) throw this.failure(Object.assign(new Error(refused.Message ?? 'delete refused'), { name: refused.Code ?? 'Error' }));
    }
  }

  private async *pages(prefix: string, delimiter?: string) {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.send('ListObjectsV2Command', { Bucket: this.s3.bucket, Prefix: prefix, Delimiter: delimiter, ContinuationToken: token }),
      );
      yield page;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.failure(error);
    }
  }

  /** The bucket's answer (or silence) in the owner's words, with the field it points at. */
  private failure(error: unknown): Error {
    if (error instanceof ArchiveUnreachable) return error;
    const e = error as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
    if (e.name === 'AbortError') return error as Error;
    const status = e.$metadata?.httpStatusCode;
    const code = e.code ?? '';
    const unreachable = (words: string) => new ArchiveUnreachable('unreachable', error, words, 'endpoint');
    if (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH|ENETUNREACH|EPIPE)$/.test(code) || e.name === 'TimeoutError')
      return unreachable(`Hearth cannot reach ${this.host}. Is this PC online, and is the address right?`);
    if (/CERT|SSL|TLS|SELF_SIGNED/.test(code) || e.name === 'EPROTO')
      return unreachable(`Hearth reached ${this.host}, but its certificate is not trusted. Check the address (https or http).`);
    if (e.name === 'NoSuchBucket' || (status === 404 && e.name === 'NotFound'))
      return new ArchiveUnreachable('missing', error, `The bucket "${this.s3.bucket}" does not exist at ${this.host}.`, 'bucket');
    if (e.name === 'InvalidAccessKeyId')
      return new ArchiveUnreachable('denied', error, 'The bucket answered: this access key does not exist.', 'access_key_id');
    if (e.name === 'SignatureDoesNotMatch')
      return new ArchiveUnreachable(
        'denied',
        error,
        'The bucket answered: the secret key does not match the access key.',
        'secret_access_key',
      );
    if (e.name === 'AccessDenied' || status === 403)
      return new ArchiveUnreachable(
        'denied',
        error,
        'The bucket answered: access denied. The keys must be allowed to list, read, write and delete in this bucket.',
        'access_key_id',
      );
    if (e.name === 'QuotaExceeded' || status === 507)
      return new ArchiveUnreachable('full', error, 'The bucket answered that it is full: its quota is reached.');
    if (status === undefined && !e.name?.match(/^[A-Z]/))
      return unreachable(`Hearth cannot reach ${this.host}: ${e.message ?? String(error)}.`);
    return new ArchiveUnreachable('other', error, `The bucket answered: ${e.message || e.name || `error ${status}`}.`);
  }
}

/** A key Hearth writes: a content file, or a file of a snapshot. */
function isHearthKey(relative: string): boolean {
  const [first, id] = relative.split('/');
  return isContentFile(relative) || (first === 'snapshots' && id !== undefined && SNAPSHOT_ID.test(id) && isSnapshotFile(relative, id));
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NoSuchKey' || (e.name === 'NotFound' && e.$metadata?.httpStatusCode === 404);
}

function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return endpoint;
  }
}
