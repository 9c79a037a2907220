import { Readable } from 'node:stream';
import type Koa from 'koa';
import { AppError } from '../app-error.ts';
import { API_PREFIX } from '../http/paths.ts';
import type { Actor } from '../services/common/context.ts';
import type { Services } from '../services/index.ts';
import { MAX_UPLOAD_BYTES, type AppendResult, type UploadState } from '../services/files/upload-state.ts';

/*
 * The tus 1.0.0 wire protocol (core, creation, creation-with-upload, creation-defer-length,
 * termination, expiration, checksum). It only translates headers to UploadService calls
 * and back; the rules live in the service.
 */

export const TUS_VERSION = '1.0.0';
export const TUS_EXTENSIONS = 'creation,creation-with-upload,creation-defer-length,termination,expiration,checksum';
const OCTET_STREAM = 'application/offset+octet-stream';
export const UPLOADS_PATH = `${API_PREFIX}/uploads`;

/** Every tus response carries the protocol headers, errors included. */
export function tusHeaders(): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.path === UPLOADS_PATH || ctx.path.startsWith(`${UPLOADS_PATH}/`)) {
      // Clients behind proxies that only pass GET/POST tunnel the real method in a header: PATCH
      // and DELETE, on an upload. Never HEAD: the POST's client would wait for a body a HEAD
      // answer never carries (a hang until the connection times out).
      const override = ctx.get('X-HTTP-Method-Override').toUpperCase();
      if (ctx.method === 'POST' && ctx.path.startsWith(`${UPLOADS_PATH}/`) && ['PATCH', 'DELETE'].includes(override)) ctx.method = override;
      ctx.set('Tus-Resumable', TUS_VERSION);
      ctx.set('Access-Control-Expose-Headers', 'Upload-Offset, Upload-Length, Upload-Expires, Location, Tus-Resumable, Service-Node-Id');
    }
    await next();
  };
}

/** Discovery. tus allows 200 or 204; 200 is what every client and conformance suite accepts. */
export function tusOptions(ctx: Koa.Context): void {
  ctx.state.responded = true;
  ctx.set({
    'Tus-Version': TUS_VERSION,
    'Tus-Extension': TUS_EXTENSIONS,
    'Tus-Max-Size': String(MAX_UPLOAD_BYTES),
    'Tus-Checksum-Algorithm': 'sha1,sha256',
  });
  // An explicitly empty body (Koa would turn a 200 without one into "OK"), then the status:
  // setting the body to null turns a 200 into 204.
  ctx.body = null;
  ctx.status = 200;
}

export async function tusCreate(ctx: Koa.Context, services: Services, actor: Actor): Promise<void> {
  requireTusVersion(ctx);
  const lengthHeader = ctx.get('Upload-Length');
  const deferred = ctx.get('Upload-Defer-Length');
  if ((lengthHeader === '') === (deferred === '')) {
    throw new AppError('invalid_input', 'Send either Upload-Length or Upload-Defer-Length: 1.', { field: 'Upload-Length' });
  }
  if (deferred !== '' && deferred !== '1') throw new AppError('invalid_input', 'Upload-Defer-Length must be 1.');
  const length = lengthHeader === '' ? null : nonNegativeInteger(lengthHeader, 'Upload-Length');
  const metadata = parseMetadata(ctx.get('Upload-Metadata'));
  const checksum = checksumOf(ctx); // validated before anything is created
  // creation-with-upload: bytes on a POST follow the PATCH rules, their type first. Refused
  // before anything is created, so a refusal leaves no upload behind.
  const carriesBytes = (ctx.request.length ?? 0) > 0 || ctx.get('Transfer-Encoding') !== '';
  if (carriesBytes && !ctx.is(OCTET_STREAM)) throw new AppError('unsupported_media_type', `Upload data is ${OCTET_STREAM}.`);
  const state = await services.uploads.create(actor, length, metadata);
  ctx.state.responded = true;
  ctx.set('Location', uploadUrl(ctx, state.id));
  ctx.set('Upload-Expires', new Date(state.expiresAt).toUTCString());
  // creation-with-upload: the first bytes may ride on the POST itself.
  if (ctx.is(OCTET_STREAM) && (ctx.request.length ?? 0) > 0) {
    const result = await services.uploads
      .append(actor, state.id, { offset: 0, checksum, bodyLength: ctx.request.length }, ctx.req)
      .catch(async (error: unknown) => {
        // An error answer carries no Location: an upload the client cannot address must not
        // linger holding its quota reservation and temp file until it expires.
        await services.uploads.terminate(actor, state.id).catch(() => {});
        ctx.remove('Location');
        ctx.remove('Upload-Expires');
        throw error;
      });
    answerAppend(ctx, result);
  } else if (length === 0) {
    const result = await services.uploads.append(actor, state.id, { offset: 0 }, Readable.from([]));
    answerAppend(ctx, result);
  }
  ctx.status = 201;
}

export async function tusHead(ctx: Koa.Context, services: Services, actor: Actor, id: string): Promise<void> {
  requireTusVersion(ctx);
  const state = await services.uploads.state(actor, id);
  ctx.state.responded = true;
  answerState(ctx, state);
  ctx.status = 200;
}

export async function tusPatch(ctx: Koa.Context, services: Services, actor: Actor, id: string): Promise<void> {
  requireTusVersion(ctx);
  if (!ctx.is(OCTET_STREAM)) throw new AppError('unsupported_media_type', `PATCH bodies are ${OCTET_STREAM}.`);
  const offsetHeader = ctx.get('Upload-Offset');
  if (offsetHeader === '') throw new AppError('missing_field', 'Upload-Offset is required.', { field: 'Upload-Offset' });
  const offset = nonNegativeInteger(offsetHeader, 'Upload-Offset');
  const lengthHeader = ctx.get('Upload-Length');
  const result = await services.uploads.append(
    actor,
    id,
    {
      offset,
      length: lengthHeader === '' ? undefined : nonNegativeInteger(lengthHeader, 'Upload-Length'),
      checksum: checksumOf(ctx),
      bodyLength: ctx.request.length,
    },
    ctx.req,
  );
  ctx.state.responded = true;
  answerAppend(ctx, result);
  ctx.status = 204;
}

export async function tusDelete(ctx: Koa.Context, services: Services, actor: Actor, id: string): Promise<void> {
  requireTusVersion(ctx);
  await services.uploads.terminate(actor, id);
  ctx.state.responded = true;
  ctx.status = 204;
}

/**
 * The upload's absolute URL (tus clients resolve a relative one, but conformance suites and
 * some clients want it whole). Its host is the request's Host, which the allow list has
 * already checked (any other name got 421), never a header nobody checked. Its scheme is the
 * connection's (plain HTTP here), unless the browser's own Origin names this same host with
 * another: a page served over HTTPS by a reverse proxy in front must not be sent to plain HTTP
 * for its bytes (the browser would block them). A client that lies in its Origin only
 * misdirects itself.
 */
function uploadUrl(ctx: Koa.Context, id: string): string {
  let scheme = ctx.protocol;
  const origin = URL.parse(ctx.get('Origin'));
  if (origin && (origin.protocol === 'https:' || origin.protocol === 'http:')) {
    const here = URL.parse(`${origin.protocol}//${ctx.host}`);
    if (here && here.host === origin.host) scheme = origin.protocol.slice(0, -1);
  }
  return `${scheme}://${ctx.host.toLowerCase()}${UPLOADS_PATH}/${id}`;
}

function answerAppend(ctx: Koa.Context, result: AppendResult): void {
  ctx.set('Upload-Offset', String(result.offset));
  ctx.set('Upload-Expires', new Date(result.expiresAt).toUTCString());
  if (result.node) ctx.set('Service-Node-Id', result.node.id);
}

function answerState(ctx: Koa.Context, state: UploadState): void {
  ctx.set('Upload-Offset', String(state.offset));
  if (state.length === null) ctx.set('Upload-Defer-Length', '1');
  else ctx.set('Upload-Length', String(state.length));
  const metadata = encodeMetadata(state.metadata);
  if (metadata) ctx.set('Upload-Metadata', metadata);
  ctx.set('Upload-Expires', new Date(state.expiresAt).toUTCString());
  ctx.set('Cache-Control', 'no-store');
  if (state.nodeId) ctx.set('Service-Node-Id', state.nodeId);
}

function requireTusVersion(ctx: Koa.Context): void {
  if (ctx.get('Tus-Resumable') !== TUS_VERSION) {
    throw new AppError('tus_version_unsupported', undefined, { headers: { 'Tus-Version': TUS_VERSION } });
  }
}

function nonNegativeInteger(value: string, field: string): number {
  if (!/^\d{1,16}$/.test(value.trim())) throw new AppError('invalid_input', `${field} must be a non-negative integer.`, { field });
  return Number(value.trim());
}

/** `Upload-Metadata: key base64,key2 base64`: keys unique, values UTF-8 once decoded. */
export function parseMetadata(header: string): Record<string, string | null> {
  const metadata: Record<string, string | null> = {};
  if (header.trim() === '') return metadata;
  for (const pair of header.split(',')) {
    const parts = pair.trim().split(' ');
    const [key, value] = parts;
    if (!key || parts.length > 2 || !/^[\x21-\x7e]+$/.test(key) || key in metadata) {
      throw new AppError('invalid_input', 'Upload-Metadata is malformed.', { field: 'Upload-Metadata' });
    }
    if (value !== undefined && !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) {
      throw new AppError('invalid_input', `Upload-Metadata "${key}" is not base64.`, { field: 'Upload-Metadata' });
    }
    metadata[key] = value === undefined ? null : Buffer.from(value, 'base64').toString('utf8');
  }
  return metadata;
}

function encodeMetadata(metadata: Record<string, string | null>): string {
  return Object.entries(metadata)
    .map(([k, v]) => (v === null ? k : `${k} ${Buffer.from(v, 'utf8').toString('base64')}`))
    .join(',');
}

function checksumOf(ctx: Koa.Context): { algorithm: 'sha1' | 'sha256'; digest: Buffer } | undefined {
  const header = ctx.get('Upload-Checksum');
  if (header === '') return undefined;
  const [algorithm, digest] = header.trim().split(' ');
  if (algorithm !== 'sha1' && algorithm !== 'sha256') throw new AppError('checksum_algorithm_unsupported');
  if (!digest || !/^[A-Za-z0-9+/]+={0,2}$/.test(digest)) {
    throw new AppError('invalid_input', 'Upload-Checksum is malformed.', { field: 'Upload-Checksum' });
  }
  return { algorithm, digest: Buffer.from(digest, 'base64') };
}
