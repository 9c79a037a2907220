import http from 'node:http';
import { startServer } from '../server/src/index.ts';
import { describeViolations, operationsOf, prepareFuzzWorld, runFuzz } from '../server/test/helpers/fuzz.ts';
import { TEST_HASH_COST } from '../server/test/helpers/server.ts';
import { removeTempDir, tempDir } from './lib/proc.ts';
import { log, type BenchResult } from './lib/report.ts';

/**
 * `npm run bench -- fuzz`: the fuzz test of server/test/api/http/fuzz.test.ts, long and with a
 * fresh seed (FUZZ_SEED repeats one; FUZZ_PER_OPERATION sets the size, default 400 requests
 * for each of the document's operations). It fails on any 5xx, hang, or 4xx without the
 * envelope and a documented code. The figure is the fuzzer's request rate against well-formed
 * requests on the same server in the same run: malformed input must not be a slow path.
 */
export async function benchFuzz(): Promise<BenchResult> {
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const perOperation = Number(process.env.FUZZ_PER_OPERATION ?? 400);
  const dataDir = await tempDir('hearth-bench-fuzz-');
  const mounts = await tempDir('hearth-bench-fuzz-mounts-');
  // In this process, so that the test's limits apply: the sign-in limiter would otherwise
  // answer 429 to most of what a fuzzer sends, and the production scrypt cost would make the
  // run about hashing. Errors the server logs (a 5xx's stack) print with the run.
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    dataDir,
    logLevel: 'error',
    passwordHashCost: TEST_HASH_COST,
    rateLimit: { maxFailures: 1_000_000 },
    // One address sends everything here: the per-address bound of the hash line would answer 503 busy.
    passwordHashQueue: { maxWaiting: 1_000, maxWaitingPerAddress: 1_000 },
    mountsRoots: [mounts],
    includeLoopDevices: false,
    mediaWorkersAtStart: false,
  });
  try {
    const api = `${server.url}/api/v1`;
    const world = await prepareFuzzWorld(api);
    const operations = operationsOf(await (await fetch(`${api}/openapi.json`)).json());
    log(`  seed ${seed}, ${operations.length} operations x ${perOperation} requests`);

    const reference = await wellFormed(api, world.tokens().member, world.ids.nodes[0]!, 3_000);
    let lastShown = 0;
    const report = await runFuzz(world, operations, {
      seed,
      perOperation,
      // A guess may be held 10 s (its slow-down and its check): later than that, with a margin, is a hang.
      timeoutMs: 12_000,
      concurrency: 4,
      onProgress: (done, total) => {
        if (done - lastShown >= total / 10 || done === total) {
          lastShown = done;
          log(`  ${done} / ${total}`);
        }
      },
    });
    const rate = report.requests / (report.elapsedMs / 1000);
    const notes = [
      `fuzz: seed ${seed} (FUZZ_SEED=${seed} repeats it), ${report.requests} requests to ${report.operations} operations, answers by status ${JSON.stringify(report.byStatus)}`,
      `fuzz: slowest ${report.slowest
        .slice(0, 3)
        .map((s) => `${s.ms} ms ${s.request.slice(0, 80)}`)
        .join('; ')}`,
      `fuzz: ${report.violations.length} violations (5xx, hangs, 4xx without the envelope or a documented code)`,
    ];
    if (report.violations.length > 0)
      throw new Error(`seed ${seed}: ${report.violations.length} violations\n${describeViolations(report, 5)}`);
    return {
      name: 'fuzz',
      rows: [
        {
          figure: 'fuzz: malformed requests per second',
          value: rate,
          reference: reference,
          unit: 'req/s',
          better: 'higher',
          referenceIs: 'fuzz: well-formed GET /me, /nodes and /nodes/{id} on the same server, same concurrency',
        },
      ],
      notes,
    };
  } finally {
    await server.close();
    await removeTempDir(dataDir);
    await removeTempDir(mounts);
  }
}

/** Requests per second of well-formed, signed-in reads at the fuzzer's concurrency. */
async function wellFormed(api: string, token: string, nodeId: string, count: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  const paths = ['/me', '/nodes?parent_id=root', `/nodes/${nodeId}`];
  const url = new URL(api);
  const get = (path: string) =>
    new Promise<void>((resolve, reject) => {
      const req = http.get(
        { host: url.hostname, port: url.port, path: `${url.pathname}${path}`, headers: { authorization: `Bearer ${token}` }, agent },
        (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
        },
      );
      req.on('error', reject);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = next++; i < count; i = next++) await get(paths[i % paths.length]!);
    }),
  );
  agent.destroy();
  return count / ((performance.now() - started) / 1000);
}
