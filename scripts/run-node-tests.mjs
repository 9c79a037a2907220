// npm test's node tiers: every server/test/**/*.test.ts, listed here rather than by `find`
// so that the command needs nothing but Node. Under CI=true a skipped test fails the run: CI
// installs every tool, so a skip there can only mean a test that stopped testing.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv.slice(2);
const files = fs
  .readdirSync(path.join(root, 'server/test'), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => path.join('server/test', file))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();

const tap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tests-')), 'results.tap');
const child = spawn(
  process.execPath,
  [
    '--import', 'tsx',
    '--test', '--test-concurrency=2', '--test-timeout=180000',
    '--test-reporter=spec', '--test-reporter-destination=stdout',
    '--test-reporter=tap', `--test-reporter-destination=${tap}`,
    ...files,
  ],
  { cwd: root, stdio: 'inherit' },
);
const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));

const skipped = fs
  .readFileSync(tap, 'utf8')
  .split('\n')
  .filter((line) => /^\s*ok \d+ - .*# SKIP/.test(line))
  .map((line) => line.trim().replace(/^ok \d+ - /, ''));
fs.rmSync(path.dirname(tap), { recursive: true, force: true });

if (skipped.length > 0) {
  console.log(`\n${skipped.length} test(s) skipped:`);
  for (const line of skipped) console.log(`  - ${line}`);
}
if (code === 0 && skipped.length > 0 && process.env.CI === 'true') {
  console.log('CI=true: CI must run every test, so a skip fails the run.');
  process.exit(1);
}
process.exit(code);
