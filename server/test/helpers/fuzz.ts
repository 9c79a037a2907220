import assert from 'node:assert/strict';
import http from 'node:http';
import fc from 'fast-check';
import { ERROR_CATALOGUE } from '../../src/contract/error-codes.ts';
import { ApiClient } from './server.ts';

/*
 * A fuzzer driven by the server's own OpenAPI document: for every operation it sends
 * malformed requests (wrong types, missing and extra fields, huge and deeply nested JSON, odd
 * unicode, garbage ids and cursors, bodies that are not JSON) with and without an account,
 * and checks each answer: never a 5xx, never a hang, and every 4xx the error envelope with a
 * catalogue code the document lists for that operation. Generation is seeded (fast-check), so
 * a run is repeated exactly by its seed. Used by server/test/api/http/fuzz.test.ts (bounded) and
 * bench/fuzz.ts (long).
 */

type Json = Record<string, any>;

export interface Operation {
  method: string;
  /** The OpenAPI path under /api/v1, e.g. /nodes/{id}. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: Json }[];
  body: Json | null;
  auth: 'none' | 'token';
  /** Error codes the document lists for the operation, by status. */
  documented: Map<number, Set<string>>;
}

export interface Violation {
  kind: '5xx' | 'hang' | 'not an envelope' | 'unknown code' | 'undocumented code' | 'status of code';
  operation: string;
  request: string;
  status: number | null;
  detail: string;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  /** The slowest requests, slowest first: where a near-hang shows. */
  slowest: { ms: number; request: string; status: number | null }[];
  byStatus: Record<number, number>;
  operations: number;
  violations: Violation[];
  elapsedMs: number;
}

/** Accounts and real ids the fuzzer mixes into its requests, so that they reach past the 404s. */
export interface FuzzWorld {
  api: string;
  /** Tokens the fuzzer sends, kept working by `repair()`. */
  tokens: () => { admin: string; member: string };
  ids: {
    nodes: string[];
    versions: string[];
    users: string[];
    sessions: string[];
    invites: string[];
    shares: string[];
    tokens: string[];
    uploads: string[];
  };
  /** Undoes what the fuzzer may have broken: disabled or demoted accounts, revoked sessions, settings. */
  repair(): Promise<void>;
}

export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(ops as Json)) {
      const params = (op.parameters ?? []) as Json[];
      const documented = new Map<number, Set<string>>();
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const codes = (response as Json).content?.['application/json']?.schema?.properties?.error?.properties?.code?.enum;
        if (Array.isArray(codes)) documented.set(Number(status), new Set(codes));
      }
      out.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        body: op.requestBody?.content?.['application/json']?.schema ?? null,
        auth: Array.isArray(op.security) && op.security.length === 0 ? 'none' : 'token',
        documented,
      });
    }
  }
  return out;
}

// ---- Values --------------------------------------------------------------------------------

const ODD_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  'null',
  'true',
  '[]',
  '{}',
  '..',
  '../../etc/passwd',
  'root',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '\u202e\u0000\u0007',
  '\uFEFF',
  '\uD800',
  'é'.repeat(300),
  'A'.repeat(5000),
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  '9'.repeat(40),
  'NaN',
  'Infinity',
  '1e309',
  '-0',
  '0x10',
  '%00',
  '%',
  '%zz',
  '\\',
  '/',
  'a/b',
  'FORMAT',
  'CON',
  '\t\n',
  '😀'.repeat(100),
];

const oddString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ODD_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 300, maxLength: 3000 }) },
);

/** A JSON value of any type: what a wrong-typed field becomes. */
const anyJson = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, 0, 2 ** 53, -(2 ** 63), 1e308, 0.5, -0.0),
  oddString,
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
);

/** A value shaped by a JSON schema, near enough to be accepted sometimes. */
function fromSchema(schema: Json | undefined, pools: string[]): fc.Arbitrary<unknown> {
  if (!schema) return anyJson;
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s: Json) => fromSchema(s, pools)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string':
      return fc.oneof(
        { weight: 2, arbitrary: pools.length > 0 ? fc.constantFrom(...pools) : fc.string({ maxLength: 20 }) },
        {
          weight: 2,
          arbitrary: fc.string({
            unit: 'grapheme-ascii',
            minLength: schema.minLength ?? 0,
            maxLength: Math.min(schema.maxLength ?? 40, 40),
          }),
        },
        { weight: 1, arbitrary: oddString },
      );
    case 'integer':
    case 'number':
      return fc.oneof(
        fc.integer({ min: Math.max(schema.minimum ?? -1000, -(2 ** 31)), max: Math.min(schema.maximum ?? 1e6, 2 ** 31) }),
        fc.constantFrom(-1, 0, 1, Number.MAX_SAFE_INTEGER, 1e20, 1.5),
      );
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(fromSchema(schema.items, pools), { maxLength: Math.min(schema.maxItems ?? 4, 10) });
    case 'object':
      return objectFromSchema(schema, pools);
    default:
      return anyJson;
  }
}

function objectFromSchema(schema: Json, pools: string[]): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Json;
  const required = new Set<string>(schema.required ?? []);
  const entries = Object.entries(properties).map(([key, s]) => [key, fromSchema(s as Json, pools)] as const);
  return fc.record(Object.fromEntries(entries), { requiredKeys: [...required].filter((k) => k in properties) });
}

/** Arrays nested `depth` deep, as text: built by hand, since JSON.stringify would recurse. */
function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

type Body = { kind: string; bytes: Buffer | null; contentType: string | null; contentEncoding?: string };

/** A request body: shaped by the operation's schema, then (mostly) broken in one way. */
function bodyArbitrary(schema: Json | null, pools: string[]): fc.Arbitrary<Body> {
  const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null');
  const shaped: fc.Arbitrary<Record<string, unknown>> = schema ? objectFromSchema(schema, pools) : fc.constant({});
  const keys = Object.keys(schema?.properties ?? {});
  const required: string[] = schema?.required ?? [];
  return fc.oneof(
    shaped.map((value) => ({ kind: 'plausible', bytes: json(value), contentType: 'application/json' })),
    fc.tuple(shaped, fc.constantFrom(...(required.length > 0 ? required : ['x']))).map(([value, drop]) => {
      const copy: Record<string, unknown> = { ...value };
      delete copy[drop];
      return { kind: `missing ${drop}`, bytes: json(copy), contentType: 'application/json' };
    }),
    fc.tuple(shaped, fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), anyJson).map(([value, key, wrong]) => ({
      kind: `wrong type for ${key}`,
      bytes: json({ ...value, [key]: wrong }),
      contentType: 'application/json',
    })),
    fc
      .tuple(
        shaped,
        fc.dictionary(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('__proto__', 'constructor', 'prototype')), anyJson, {
          minKeys: 1,
          maxKeys: 5,
        }),
      )
      .map(([value, extra]) => ({
        kind: 'extra fields',
        // Spelled into the text: an object literal would swallow a __proto__ key.
        bytes: Buffer.from(
          JSON.stringify(value).replace(/\}$/, '') +
            (Object.keys(value).length > 0 ? ',' : '') +
            Object.entries(extra)
              .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`)
              .join(',') +
            '}',
        ),
        contentType: 'application/json',
      })),
    fc
      .tuple(shaped, fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), fc.integer({ min: 100_000, max: 400_000 }))
      .map(([value, key, size]) => ({
        kind: `huge ${key}`,
        bytes: json({ ...value, [key]: 'x'.repeat(size) }),
        contentType: 'application/json',
      })),
    fc
      .integer({ min: 1_100_000, max: 1_300_000 })
      .map((size) => ({ kind: 'over the body limit', bytes: Buffer.from(`{"a":"${'y'.repeat(size)}"}`), contentType: 'application/json' })),
    fc.tuple(fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('array' as const, 'object' as const)).map(([depth, kind]) => ({
      kind: `nested ${depth} deep`,
      bytes: Buffer.from(deepJson(depth, kind)),
      contentType: 'application/json',
    })),
    fc
      .tuple(shaped, fc.constantFrom(...(keys.length > 0 ? keys : ['x'])), fc.string({ unit: 'binary', minLength: 1, maxLength: 50 }))
      .map(([value, key, text]) => ({
        kind: `odd unicode in ${key}`,
        bytes: json({ ...value, [key]: text }),
        contentType: 'application/json',
      })),
    fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => ({
      kind: 'bytes that are not UTF-8 JSON',
      bytes: Buffer.concat([Buffer.from('{"a":"'), Buffer.from(bytes), Buffer.from('"}')]),
      contentType: 'application/json',
    })),
    fc
      .constantFrom('{', '{"a":', '[1,2', 'nul', '"just a string"', '42', 'null', '[]', '{"a":1}{"b":2}', '\uFEFF{}', '{"a":1,}', "{'a':1}")
      .map((text) => ({
        kind: `not a JSON object: ${text}`,
        bytes: Buffer.from(text),
        contentType: 'application/json',
      })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json; charset=latin1',
        'application/json; charset=utf-16',
        'application/xml',
        '*/*',
      )
      .map((type) => ({ kind: `content type ${type}`, bytes: Buffer.from('{"name":"x"}'), contentType: type })),
    fc.constant({ kind: 'no body', bytes: null, contentType: null }),
    fc.constantFrom('gzip', 'deflate', 'br', 'compress', 'identity, gzip').map((encoding) => ({
      kind: `Content-Encoding ${encoding} on plain bytes`,
      bytes: Buffer.from('{"name":"x"}'),
      contentType: 'application/json',
      contentEncoding: encoding,
    })),
  );
}

/** A query string for the operation: declared parameters with odd values, plus strangers. */
function queryArbitrary(op: Operation, pools: string[]): fc.Arbitrary<string> {
  type Pair = readonly [string, string];
  const param = (p: { name: string; schema: Json }): fc.Arbitrary<Pair> =>
    fc
      .oneof(
        fromSchema(p.schema, pools).map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
        oddString,
        p.name === 'cursor'
          ? fc.oneof(
              fc.base64String({ maxLength: 80 }),
              fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
            )
          : oddString,
      )
      .map((value): Pair => [p.name, value]);
  const declaredPairs: fc.Arbitrary<Pair[]> = fc
    .subarray(op.query)
    .chain((chosen): fc.Arbitrary<Pair[]> => (chosen.length === 0 ? fc.constant([]) : fc.tuple(...chosen.map(param)).map((t) => [...t])));
  const pairs = fc.tuple(
    declaredPairs,
    fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom('limit', 'cursor', 'access_token', '__proto__')), oddString), {
      maxLength: 2,
    }),
  );
  return pairs.map(([declared, extra]) => {
    const parts = [...declared, ...extra].map(([k, v]) => `${encode(k)}=${encode(v)}`);
    return parts.length > 0 ? `?${parts.join('&')}` : '';
  });
}

/** Percent-encodes, or leaves a deliberately malformed escape as it is. */
function encode(value: string): string {
  if (['%', '%zz', '%00', '..'].includes(value)) return value;
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?'));
  }
}

interface Case {
  path: string;
  body: Body | null;
  auth: 'none' | 'garbage' | 'member' | 'admin' | 'query';
  headers: Record<string, string>;
  method: string;
}

function caseArbitrary(op: Operation, world: FuzzWorld): fc.Arbitrary<Case> {
  const { ids } = world;
  const pools: Record<string, string[]> = {
    id: [...ids.nodes, ...ids.users, ...ids.sessions, ...ids.invites, ...ids.shares, ...ids.uploads],
    vid: ids.versions,
    userId: ids.users,
    token: ids.tokens,
    code: [],
  };
  const everyId = Object.values(ids).flat();
  const pathValue = (name: string) =>
    fc
      .oneof(
        { weight: 2, arbitrary: fc.constantFrom(...(pools[name]?.length ? pools[name]! : ['x'])) },
        { weight: 3, arbitrary: oddString },
      )
      .map(encode);
  const path = fc.tuple(...op.pathParams.map(pathValue)).map((values) => {
    let p = op.path;
    op.pathParams.forEach((name, i) => (p = p.replace(`{${name}}`, values[i] === '' ? '%20' : values[i]!)));
    return p;
  });
  const tusHeaders = op.path.startsWith('/uploads')
    ? fc.record(
        {
          'Tus-Resumable': fc.oneof(fc.constant('1.0.0'), oddString.map(asciiHeader)),
          'Upload-Length': fc.oneof(fc.nat().map(String), oddString.map(asciiHeader)),
          'Upload-Defer-Length': fc.constantFrom('1', '0', 'x'),
          'Upload-Offset': fc.oneof(fc.nat({ max: 100 }).map(String), oddString.map(asciiHeader)),
          'Upload-Metadata': fc.oneof(
            fc.dictionary(fc.constantFrom('filename', 'filetype', 'parent_id', 'node_id', 'x'), oddString, { maxKeys: 4 }).map((m) =>
              Object.entries(m)
                .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
                .join(','),
            ),
            oddString.map(asciiHeader),
          ),
          'Upload-Checksum': fc.oneof(fc.constantFrom('sha1 ', 'sha256 AAAA', 'md5 x'), oddString.map(asciiHeader)),
          'Content-Type': fc.constantFrom('application/offset+octet-stream', 'application/json', 'text/plain'),
          'X-HTTP-Method-Override': fc.constantFrom('PATCH', 'DELETE', 'HEAD', 'GET', 'x'),
        },
        { requiredKeys: [] },
      )
    : fc.constant({});
  const otherHeaders = fc.record(
    {
      'Idempotency-Key': oddString.map(asciiHeader),
      Accept: fc.constantFrom('image/webp', '*/*', 'application/json', 'text/html', ''),
      Range: fc.constantFrom(
        'bytes=0-0',
        'bytes=-1',
        'bytes=5-2',
        'bytes=0-',
        'bytes=99999999-',
        'bytes=0-1,2-3',
        'items=0-1',
        'bytes=abc',
      ),
      'If-Range': fc.constantFrom('"x"', 'Wed, 21 Oct 2015 07:28:00 GMT', 'garbage'),
      'X-Share-Grant': oddString.map(asciiHeader),
    },
    { requiredKeys: [] },
  );
  const cases = fc
    .record({
      path,
      query: queryArbitrary(op, everyId),
      body:
        op.body || op.method === 'PATCH' || op.method === 'POST'
          ? fc.option(bodyArbitrary(op.body, everyId), { freq: 8 })
          : fc.constant(null),
      // Mostly with an account: without one nearly everything stops at the 401.
      auth: fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom<Case['auth']>('none', 'garbage', 'query') },
        { weight: 2, arbitrary: fc.constantFrom<Case['auth']>('member', 'admin') },
      ),
      tus: tusHeaders,
      other: otherHeaders,
    })
    .map(({ path: p, query, body, auth, tus, other }) => ({
      method: op.method,
      path: p + query,
      body,
      auth,
      headers: { ...(other as Record<string, string>), ...(tus as Record<string, string>) },
    }));
  if (op.method !== 'POST' || op.path !== '/uploads') return cases;
  // A creation as tus clients send it, now and then: random bodies nearly always carry a type
  // the creation refuses (415), and the uploads that follow must be reached too.
  const wellFormed = fc.constantFrom<Case['auth']>('member', 'admin').map((auth) => ({
    method: op.method,
    path: op.path,
    body: null,
    auth,
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '3',
      'Upload-Metadata': `filename ${Buffer.from('fuzz.txt').toString('base64')}`,
    },
  }));
  return fc.oneof({ weight: 1, arbitrary: wellFormed }, { weight: 3, arbitrary: cases });
}

/** Header values must be latin-1 without controls, or Node's client refuses to send them. */
function asciiHeader(value: string): string {
  return (
    value
      .replace(/[^\x20-\x7e]/g, '')
      .slice(0, 2000)
      .trim() || 'x'
  );
}

// ---- Running -------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function send(api: string, c: Case, tokens: { admin: string; member: string }, timeoutMs: number): Promise<Answer | 'hang'> {
  const url = new URL(api);
  const headers: Record<string, string | number> = { ...c.headers };
  let path = `${url.pathname}${c.path}`;
  if (c.auth === 'garbage') headers.Authorization = 'Bearer not.a.token';
  if (c.auth === 'member') headers.Authorization = `Bearer ${tokens.member}`;
  if (c.auth === 'admin') headers.Authorization = `Bearer ${tokens.admin}`;
  if (c.auth === 'query') path += `${path.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(tokens.member)}`;
  if (c.body?.contentType) headers['Content-Type'] = c.body.contentType;
  if (c.body?.contentEncoding) headers['Content-Encoding'] = c.body.contentEncoding;
  if (c.body?.bytes) headers['Content-Length'] = c.body.bytes.length;
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, method: c.method, path, headers, agent });
    const timer = setTimeout(() => {
      req.destroy();
      resolve('hang');
    }, timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      // The server may close a connection whose request it refused before reading the body.
      if ((error as NodeJS.ErrnoException).code === 'ECONNRESET' || (error as NodeJS.ErrnoException).code === 'EPIPE')
        resolve({ status: 0, headers: {}, body: Buffer.alloc(0) });
      else reject(error);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) });
      });
    });
    req.end(c.body?.bytes ?? undefined);
  });
}

function check(op: Operation, c: Case, answer: Answer | 'hang'): Violation | null {
  const operation = `${op.method} ${op.path}`;
  const request = `${c.method} ${c.path.slice(0, 200)} auth=${c.auth} body=${c.body?.kind ?? 'none'}`;
  const violation = (kind: Violation['kind'], status: number | null, detail: string): Violation => ({
    kind,
    operation,
    request,
    status,
    detail: detail.slice(0, 300),
  });
  if (answer === 'hang') return violation('hang', null, 'no answer within the time limit');
  const { status } = answer;
  if (status === 0) return null; // connection closed by the server after an early refusal
  const text = answer.body.toString('utf8');
  if (status >= 500) return violation('5xx', status, text);
  if (status < 400) return null;
  if (c.method === 'HEAD') return null; // a HEAD answer has no body to hold the envelope
  let code: unknown;
  try {
    assert.match(String(answer.headers['content-type']), /^application\/json/);
    const body = JSON.parse(text) as { error?: { code?: unknown; message?: unknown; field?: unknown } };
    assert.equal(typeof body.error?.code, 'string');
    assert.equal(typeof body.error?.message, 'string');
    assert.ok(body.error!.field === undefined || typeof body.error!.field === 'string');
    code = body.error!.code;
  } catch {
    return violation('not an envelope', status, `${answer.headers['content-type']}: ${text}`);
  }
  if (!(typeof code === 'string' && code in ERROR_CATALOGUE)) return violation('unknown code', status, String(code));
  if (ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].status !== status) return violation('status of code', status, String(code));
  if (!op.documented.get(status)?.has(code)) return violation('undocumented code', status, String(code));
  return null;
}

export interface FuzzOptions {
  seed: number;
  /** Requests per operation. */
  perOperation: number;
  timeoutMs: number;
  concurrency: number;
  /** Requests between two repairs of the fuzzer's accounts. */
  repairEvery?: number;
  onProgress?: (done: number, total: number) => void;
}

export async function runFuzz(world: FuzzWorld, operations: Operation[], options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const cases: { op: Operation; c: Case }[] = [];
  operations.forEach((op, i) => {
    for (const c of fc.sample(caseArbitrary(op, world), { seed: options.seed + i * 7919, numRuns: options.perOperation }))
      cases.push({ op, c });
  });
  // Interleaved, so that one operation's state changes meet the others' requests.
  const order = fc.sample(fc.shuffledSubarray(cases, { minLength: cases.length }), { seed: options.seed, numRuns: 1 })[0]!;
  const report: FuzzReport = {
    seed: options.seed,
    requests: 0,
    slowest: [],
    byStatus: {},
    operations: operations.length,
    violations: [],
    elapsedMs: 0,
  };
  const repairEvery = options.repairEvery ?? 50;
  for (let at = 0; at < order.length; at += repairEvery) {
    await world.repair();
    const batch = order.slice(at, at + repairEvery);
    let next = 0;
    const tokens = world.tokens();
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        for (let i = next++; i < batch.length; i = next++) {
          const { op, c } = batch[i]!;
          const sentAt = performance.now();
          const answer = await send(world.api, c, tokens, options.timeoutMs);
          const ms = performance.now() - sentAt;
          if (report.slowest.length < 10 || ms > report.slowest.at(-1)!.ms) {
            report.slowest.push({
              ms: Math.round(ms),
              request: `${c.method} ${c.path.slice(0, 120)} auth=${c.auth} body=${c.body?.kind ?? 'none'}`,
              status: answer === 'hang' ? null : answer.status,
            });
            report.slowest.sort((a, b) => b.ms - a.ms).splice(10);
          }
          report.requests++;
          if (answer !== 'hang') report.byStatus[answer.status] = (report.byStatus[answer.status] ?? 0) + 1;
          const violation = check(op, c, answer);
          if (violation) report.violations.push(violation);
        }
      }),
    );
    options.onProgress?.(Math.min(at + repairEvery, order.length), order.length);
  }
  report.elapsedMs = performance.now() - started;
  return report;
}

// ---- The world -----------------------------------------------------------------------------

const TUS = { 'Tus-Resumable': '1.0.0' };

/**
 * Accounts and content for the fuzzer: a keeper admin it never sends requests as (it repairs
 * the others), an admin and a member it sends requests as, and a victim whose things it aims
 * at. Real ids of each kind go into the requests.
 */
export async function prepareFuzzWorld(api: string): Promise<FuzzWorld> {
  const client = new ApiClient(api);
  const ok = <T>(res: { status: number; body: T }, status = 200): T => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    return res.body;
  };
  const keeperPassword = 'keeper-password-1';
  const keeper = ok(await client.post('/setup', { username: 'keeper', password: keeperPassword }));
  let keeperToken: string = keeper.access_token;
  const accounts: Record<
    'admin' | 'member' | 'victim',
    { id: string; username: string; password: string; token: string; session: string }
  > = {} as never;
  for (const [role, username] of [
    ['admin', 'fuzzadmin'],
    ['member', 'fuzzmember'],
    ['victim', 'fuzzvictim'],
  ] as const) {
    const invite = ok(await client.post('/admin/invites', { role: role === 'admin' ? 'admin' : 'member' }, { token: keeperToken }), 201);
    const password = `${username}-password-1`;
    const user = ok(await client.post('/auth/register', { username, password, invite_code: invite.code }), 201);
    const signedIn = ok(await client.post('/auth/login', { username, password }));
    accounts[role] = {
      id: user.user?.id ?? signedIn.user.id,
      username,
      password,
      token: signedIn.access_token,
      session: signedIn.session_id,
    };
  }
  const member = accounts.member.token;
  const folder = ok(await client.post('/nodes/folder', { name: 'Fuzz folder' }, { token: member }), 201);
  const sub = ok(await client.post('/nodes/folder', { name: 'Inside', parent_id: folder.id }, { token: member }), 201);
  const victimFolder = ok(await client.post('/nodes/folder', { name: 'Not yours' }, { token: accounts.victim.token }), 201);
  const upload = async (token: string, name: string, data: Buffer, extra: Record<string, string> = {}) => {
    const meta = Object.entries({ filename: name, ...extra })
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
    const res = await fetch(`${api}/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...TUS,
        'Upload-Length': String(data.length),
        'Upload-Metadata': meta,
        'Content-Type': 'application/offset+octet-stream',
      },
      body: data as BodyInit,
    });
    assert.equal(res.status, 201, await res.text());
    return res.headers.get('service-node-id') ?? res.headers.get('location')!.split('/').pop()!;
  };
  const file = await upload(member, 'notes.txt', Buffer.from('first'), { parent_id: folder.id });
  await upload(member, 'notes.txt', Buffer.from('second'), { node_id: file });
  const versions = ok(await client.get(`/nodes/${file}/versions`, { token: member })).items.map((v: any) => v.id);
  const pending = await fetch(`${api}/uploads`, {
    method: 'POST',
    headers: { authorization: `Bearer ${member}`, ...TUS, 'Upload-Length': '100' },
  });
  const uploadId = pending.headers.get('location')!.split('/').pop()!;
  ok(await client.post(`/nodes/${folder.id}/permissions`, { user_id: accounts.victim.id, role: 'viewer' }, { token: member }), 201);
  const link = ok(await client.post(`/nodes/${folder.id}/share`, {}, { token: member }), 201);
  const invite = ok(await client.post('/admin/invites', {}, { token: keeperToken }), 201);

  const tokens = () => ({ admin: accounts.admin.token, member: accounts.member.token });
  const repair = async () => {
    if ((await client.get('/me', { token: keeperToken })).status !== 200) {
      keeperToken = ok(await client.post('/auth/login', { username: 'keeper', password: keeperPassword })).access_token;
    }
    ok(
      await client.patch(
        '/server/settings',
        { require_device_approval: false, allow_self_registration: false, trash_retention_days: 30, default_quota_bytes: null },
        { token: keeperToken },
      ),
    );
    for (const role of ['admin', 'member'] as const) {
      const account = accounts[role];
      const me = await client.get('/me', { token: account.token });
      if (me.status === 200 && me.body.role === role && !me.body.must_change_password && me.body.quota?.limit === null) continue;
      ok(await client.patch(`/admin/users/${account.id}`, { disabled: false, role, quota_bytes: null }, { token: keeperToken }));
      if (me.status === 200 && !me.body.must_change_password) continue;
      // Its sessions were revoked (or its password changed): a known password, then signed in again.
      const temporary = `reset-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      ok(await client.post(`/admin/users/${account.id}/reset-password`, { new_password: temporary }, { token: keeperToken }));
      const signedIn = ok(await client.post('/auth/login', { username: account.username, password: temporary }));
      account.password = `${temporary}-x`;
      await client.patch('/me/password', { current_password: temporary, new_password: account.password }, { token: signedIn.access_token });
      account.token = signedIn.access_token;
    }
  };
  return {
    api,
    tokens,
    ids: {
      nodes: [folder.id, sub.id, file, victimFolder.id],
      versions,
      users: [accounts.admin.id, accounts.member.id, accounts.victim.id],
      sessions: [accounts.admin.session, accounts.member.session, accounts.victim.session],
      invites: [invite.id],
      shares: [link.id],
      tokens: [link.token],
      uploads: [uploadId],
    },
    repair,
  };
}

/** One line per kind of violation, with a few examples: what a failing run prints. */
export function describeViolations(report: FuzzReport, examples = 3): string {
  const byKind = new Map<string, Violation[]>();
  for (const v of report.violations) {
    const key = `${v.kind} ${v.status ?? ''} ${v.operation}${v.kind === '5xx' || v.kind === 'hang' ? '' : ` (${v.detail.slice(0, 60)})`}`;
    byKind.set(key, [...(byKind.get(key) ?? []), v]);
  }
  return [...byKind]
    .map(
      ([key, list]) =>
        `${list.length} x ${key}\n${list
          .slice(0, examples)
          .map((v) => `    ${v.request}\n      -> ${v.detail}`)
          .join('\n')}`,
    )
    .join('\n');
}
