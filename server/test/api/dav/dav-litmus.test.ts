import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { setupOwner } from '../../helpers/accounts.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';
import { driveLogin, type DriveLogin } from './dav-support.ts';

const LITMUS = '/usr/bin/litmus';
let t: TestServer;
let drive: DriveLogin;

before(async () => {
  t = await startTestServer();
  drive = await driveLogin(t, await setupOwner(t.client), 'owner');
});
after(() => t.close());

/** Debian's litmus, one suite against the real server; its summary line. */
async function litmus(suite: string): Promise<{ summary: string; output: string }> {
  // litmus writes its scratch files into the folder it runs in.
  const cwd = await makeTempDir('hearth-litmus-');
  const output = await new Promise<string>((resolve) => {
    execFile(
      LITMUS,
      [`${t.url}/dav/`, drive.username, drive.password],
      { cwd, env: { ...process.env, TESTS: suite }, timeout: 120_000 },
      (_error, stdout) => resolve(stdout),
    );
  }).finally(() => fs.rm(cwd, { recursive: true, force: true }));
  const summary = /<- summary for `[^']+': of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(output);
  return { summary: summary ? summary[0] : '', output };
}

const SKIP = !existsSync(LITMUS) && 'litmus is not installed';

/** The lines of failed tests. */
function unexpectedFailures(output: string): string[] {
  // litmus rewrites each test's line with a carriage return: what it last wrote is the verdict.
  const lines = output.split('\n').map((line) => line.split('\r').pop()!.trim());
  return lines.filter((line) => /\bFAIL\b/.test(line));
}

for (const [suite, count] of [
  ['basic', 16],
  ['copymove', 13],
  ['http', 4],
  ['locks', 41],
  ['props', 30],
] as const) {
  test(`litmus ${suite} passes whole (${count} of ${count})`, { skip: SKIP }, async () => {
    const { summary, output } = await litmus(suite);
    if (process.env.LITMUS_SHOW) console.log(output);
    const run = /of (\d+) tests run: (\d+) passed, (\d+) failed/.exec(summary);
    assert.ok(run, output);
    assert.equal(Number(run[1]), count, output);
    assert.deepEqual(unexpectedFailures(output), [], output);
  });
}
