// The tests' S3 server in a process of its own (see s3.ts): started with --openssl-legacy-provider,
// since s3rver encrypts its listing's continuation tokens with DES, which OpenSSL 3 keeps there.
// Prints `listening <port>` once it answers; keys and bucket come in the environment. On stdin,
// `hold` makes every GET of a content object wait (answered `holding`; each one that waits prints
// `held <path>`) until `release`: a test reads a backup's state mid-restore at a known point.
// `count` answers `counted <json>`: the requests so far by method and what they touched
// ("HEAD content", "GET list", …). S3_DELAY_MS, when set, holds every request that long before it
// is answered: a bucket across the internet, for a benchmark.
import { createRequire } from 'node:module';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';

const require = createRequire(import.meta.url);
const S3rver = require('@20minutes/s3rver');
const { DUMMY_ACCOUNT } = require('@20minutes/s3rver/lib/models/account');
const v4 = require('@20minutes/s3rver/lib/signature/v4');

const RAW_PATH = 'x-hearth-test-raw-path';
// s3rver rebuilds the signed path from the bucket's name and drops the trailing slash the AWS SDK
// v3 signs for a bucket-level request in path style (/bucket/?list-type=2): the request's own path
// is handed to the check instead. The signature is still computed with the real secret and compared.
const original = v4.getStringToSign;
v4.getStringToSign = (request, signature) => {
  const raw = request.headers[RAW_PATH];
  if (typeof raw === 'string' && /^\/[^/]+\/$/.test(raw) && !request.uri.endsWith('/'))
    return original({ ...request, uri: `${request.uri}/` }, signature);
  return original(request, signature);
};

const { S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_BUCKET, S3_DIRECTORY, S3_LOG, S3_DELAY_MS } = process.env;
DUMMY_ACCOUNT.revokeAccessKey('S3RVER');
DUMMY_ACCOUNT.createKeyPair(S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: !S3_LOG,
  directory: S3_DIRECTORY,
  configureBuckets: [{ name: S3_BUCKET }],
});
server.middleware.unshift((ctx, next) => {
  ctx.req.headers[RAW_PATH] = ctx.path;
  return next();
});
let holding = false;
const waiting = [];
const counted = {};
const delay = Number(S3_DELAY_MS ?? 0);
/** What a request touched: a content object, a snapshot's object, a listing of the bucket, or else. */
function touched(ctx) {
  if (ctx.path.includes('/hearth-backup/content/')) return 'content';
  if (ctx.path.includes('/hearth-backup/snapshots/')) return 'snapshot';
  if (ctx.method === 'GET' && /^\/[^/]+\/?$/.test(ctx.path) && !('uploads' in ctx.query)) return 'list';
  return 'other';
}
server.middleware.unshift(async (ctx, next) => {
  const what = `${ctx.method} ${touched(ctx)}`;
  counted[what] = (counted[what] ?? 0) + 1;
  if (delay > 0) await sleep(delay);
  return next();
});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  for (const line of text.split('\n')) {
    if (line === 'hold') {
      holding = true;
      process.stdout.write('holding\n');
    } else if (line === 'count') {
      process.stdout.write(`counted ${JSON.stringify(counted)}\n`);
    } else if (line === 'release') {
      holding = false;
      for (const go of waiting.splice(0)) go();
    }
  }
});
server.middleware.unshift(async (ctx, next) => {
  if (holding && ctx.method === 'GET' && ctx.path.includes('/hearth-backup/content/')) {
    process.stdout.write(`held ${ctx.path}\n`);
    await new Promise((resolve) => waiting.push(resolve));
  }
  return next();
});
const { port } = await server.run();
process.stdout.write(`listening ${port}\n`);
