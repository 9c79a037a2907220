import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../contract/error-codes.ts';
import { VERSION } from '../config.ts';
import { QUERY_TOKEN_ROUTES } from './bearer.ts';
import type { AnyRoute } from './route-def.ts';
import { API_PREFIX } from './paths.ts';

type Json = Record<string, unknown>;

const cache = new WeakMap<readonly AnyRoute[], Json>();

/**
 * The OpenAPI 3.1 document, generated from the route table itself: a route cannot exist
 * without being described, and the schemas documented are the ones that validate.
 */
export function openApiDocument(routes: readonly AnyRoute[]): Json {
  let doc = cache.get(routes);
  if (!doc) {
    doc = build(routes);
    cache.set(routes, doc);
  }
  return doc;
}

export function openApiPath(routerPath: string): string {
  return routerPath.replace(/:(\w+)/g, '{$1}');
}

function build(routes: readonly AnyRoute[]): Json {
  const paths: Record<string, Json> = {};
  for (const def of routes) {
    const path = openApiPath(def.path);
    paths[path] ??= {};
    paths[path]![def.method.toLowerCase()] = operation(def);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Hearth file storage API',
      version: VERSION,
      description:
        'Every error answers {"error":{"code","message","field"?}}. Times are milliseconds since the epoch; sizes are bytes. ' +
        'Lists page with `limit` (default 100, max 1000) and an opaque `cursor`, answering {items, next_cursor}. ' +
        'JSON bodies may be sent with Content-Encoding gzip, deflate or br (400 `invalid_encoding` when they do not decompress; ' +
        'the body limit counts the decompressed bytes). What is not HTTP/1.1 at all is answered on any path with the envelope ' +
        'and the connection closed: 400 `malformed_request`, 408 `request_timeout`, 417 `expectation_failed`, ' +
        '431 `headers_too_large`, 505 `http_version_unsupported`.',
    },
    servers: [{ url: API_PREFIX }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        queryToken: {
          type: 'apiKey',
          in: 'query',
          name: 'access_token',
          description:
            "On GET /ws: the session's access token. On a node's download, thumbnail, preview and playback copy: a token from POST /nodes/{id}/access-token for that node; the session's token is refused there",
        },
      },
    },
    paths,
  };
}

function operation(def: AnyRoute): Json {
  const op: Json = {
    operationId: `${def.method.toLowerCase()}${def.path.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    summary: def.summary,
    tags: [def.tag],
    parameters: [...parameters(def.params, 'path'), ...parameters(def.query, 'query')],
    responses: responses(def),
  };
  if (def.auth === 'none') op.security = [];
  else if (QUERY_TOKEN_ROUTES.has(`${def.method} ${def.path}`)) op.security = [{ bearer: [] }, { queryToken: [] }];
  else op.security = [{ bearer: [] }];
  if (def.body) {
    op.requestBody = { required: true, content: { 'application/json': { schema: schemaOf(def.body, 'input') } } };
  }
  return op;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): Json[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: s,
  }));
}

function responses(def: AnyRoute): Json {
  const out: Json = {};
  for (const [status, doc] of Object.entries(def.responses)) {
    const entry: Json = { description: doc.description };
    if (doc.contentType) entry.content = { [doc.contentType]: {} };
    else if (doc.schema) entry.content = { 'application/json': { schema: schemaOf(doc.schema, 'output') } };
    out[status] = entry;
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodes(def)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: codes.map((c) => `\`${c}\`: ${ERROR_CATALOGUE[c].message}`).join(' '),
      content: { 'application/json': { schema: errorSchema(codes) } },
    };
  }
  return out;
}

/** The codes a route can answer: those of its auth mode and inputs, and its own. */
export function errorCodes(def: AnyRoute): ErrorCode[] {
  const codes = new Set<ErrorCode>(def.errors ?? []);
  if (def.auth !== 'none') {
    codes.add('unauthorized').add('invalid_token');
    if (def.auth !== 'pending') codes.add('pending_approval');
    if (def.auth === 'pending') codes.add('forbidden');
    if (def.method !== 'GET' && !def.allowWithTemporaryPassword && def.auth !== 'pending') codes.add('must_change_password');
  }
  if (def.auth === 'admin') codes.add('forbidden');
  if (def.body) {
    codes
      .add('invalid_json')
      .add('missing_field')
      .add('invalid_input')
      .add('payload_too_large')
      .add('unsupported_media_type')
      .add('invalid_encoding');
  }
  if (def.params || def.query) codes.add('invalid_input');
  if (def.params) codes.add('not_found');
  if (def.download) codes.add('too_many_downloads');
  if (def.query && 'cursor' in ((def.query as z.ZodObject).shape ?? {})) codes.add('invalid_cursor');
  // Every route refuses a Host that is not the server's (DNS rebinding).
  codes.add('misdirected_request');
  // Whatever writes can meet a full or read-only disk; reads never write what they need.
  if (def.method !== 'GET' && def.method !== 'OPTIONS') codes.add('storage_full').add('storage_read_only');
  codes.add('internal');
  return [...codes];
}

function errorSchema(codes: ErrorCode[]): Json {
  return {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string', enum: codes }, message: { type: 'string' }, field: { type: 'string' } },
      },
    },
  };
}

function schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Json;
  delete json.$schema;
  return json;
}
