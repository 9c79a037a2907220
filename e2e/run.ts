/**
 * `npm run test:e2e`: builds the web app, then runs the browser tests in Debian's Chromium.
 * Without Chromium it prints one line and skips, except under CI=true, where that fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(chromium)) {
  const line = `e2e: skipped, no Chromium at ${chromium} (Debian: apt install chromium; or set CHROMIUM_PATH)`;
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
