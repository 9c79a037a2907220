/**
 * `npm run test:e2e`: builds the web app, then runs the browser tests in Debian's Chromium.
 * Without Chromium it prints one line and skips, except under CI=true, where that fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// @ts-expect-error a plain .mjs script, shared with scripts/run-node-tests.mjs and the benchmarks
import { buildServerBundle } from '../scripts/server-bundle.mjs';
// @ts-expect-error: a plain ES module script without types
import { chromiumProblem } from '../scripts/chromium.mjs';

const problem = (chromiumProblem as () => string | null)();
if (problem) {
  const line = `e2e: skipped, ${problem}`;
  if (process.env.CI === 'true') {
    console.error(`${line}; under CI this is a failure`);
    process.exit(1);
  }
  console.log(line);
  process.exit(0);
}

const run = (cmd: string, args: string[], env = process.env) => spawnSync(cmd, args, { stdio: 'inherit', env }).status ?? 1;
const built = run('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
if (built !== 0) process.exit(built);

// Each worker's server (e2e/support/serve.ts, the real server in-process) runs from one bundle
// made here, with its media workers beside it as in dist/: loading the sources through tsx
// cost each of the run's servers about a CPU-second more. hearth.ts falls back to tsx when
// Playwright runs without this script.
const root = path.resolve(import.meta.dirname, '..');
const cache = path.join(root, 'node_modules', '.cache');
fs.mkdirSync(cache, { recursive: true });
const bundle = fs.mkdtempSync(path.join(cache, 'hearth-e2e-server-'));
let code: number;
try {
  await buildServerBundle(root, bundle, { serve: 'e2e/support/serve.ts' });
  code = run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)], {
    ...process.env,
    HEARTH_E2E_SERVER_BUNDLE: bundle,
  });
} finally {
  fs.rmSync(bundle, { recursive: true, force: true });
}
process.exit(code);
