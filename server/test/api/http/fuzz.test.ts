import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { describeViolations, operationsOf, prepareFuzzWorld, runFuzz, type FuzzWorld, type Operation } from '../../helpers/fuzz.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Every operation of the server's own OpenAPI document, sent malformed requests: never a 5xx,
 * never a hang, and every 4xx the error envelope with a code the document lists for that
 * operation. Bounded and seeded here (FUZZ_SEED repeats a run; FUZZ_PER_OPERATION sets its
 * size); `npm run bench -- fuzz` runs it long with a fresh seed.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const PER_OPERATION = Number(process.env.FUZZ_PER_OPERATION ?? 14);
/** A guess may be held 10 s (its slow-down and its check): an answer later than that, with a margin, is a hang. */
const HANG_MS = 12_000;

let t: TestServer;
let mounts: string;
let world: FuzzWorld;
let operations: Operation[];

before(async () => {
  mounts = await makeTempDir('hearth-fuzz-mounts-');
  t = await startTestServer({
    // Sign-in failures are what the fuzzer sends most: the limiter would answer 429 to everything.
    rateLimit: { maxFailures: 1_000_000 },
    // One address sends everything here: the per-address bound of the hash line would answer 503 busy.
    passwordHashQueue: { maxWaiting: 1_000, maxWaitingPerAddress: 1_000 },
    mountsRoots: [mounts],
    includeLoopDevices: false,
  });
  world = await prepareFuzzWorld(t.api);
  const doc = await (await fetch(`${t.api}/openapi.json`)).json();
  operations = operationsOf(doc);
});
after(async () => {
  await t.close();
  await fs.rm(mounts, { recursive: true, force: true });
});

test(`fuzzing every operation of the OpenAPI document (seed ${SEED}, ${PER_OPERATION} requests each): no 5xx, no hang, the envelope with a documented code on every 4xx`, async () => {
  assert.ok(operations.length >= 70, `${operations.length} operations in the document`);
  const report = await runFuzz(world, operations, { seed: SEED, perOperation: PER_OPERATION, timeoutMs: HANG_MS, concurrency: 4 });
  assert.equal(report.requests, operations.length * PER_OPERATION);
  // The fuzzer reached past the front door: answers of every kind, not only 401s and 404s.
  const statuses = Object.keys(report.byStatus).map(Number);
  for (const status of [200, 201, 204, 400, 401, 403, 404, 409, 413, 415])
    assert.ok(statuses.includes(status), `no ${status} among ${JSON.stringify(report.byStatus)}`);
  assert.equal(
    report.violations.length,
    0,
    `seed ${SEED}: ${report.violations.length} violations in ${report.requests} requests\n${describeViolations(report)}`,
  );
});
