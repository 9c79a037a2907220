/**
 * `npm run test:e2e`: builds the web app, then runs the browser tests in Debian's Chromium.
 * Without Chromium it prints one line and skips, except under CI=true, where that fails.
 */
import { spawnSync } from 'node:child_process';
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

const run = (cmd: string, args: string[]) => spawnSync(cmd, args, { stdio: 'inherit' }).status ?? 1;
const built = run('npx', ['vite', 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'warn']);
if (built !== 0) process.exit(built);
process.exit(run('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)]));
