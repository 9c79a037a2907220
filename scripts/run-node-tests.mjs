// npm test's node tiers: every server/test/**/*.test.ts, listed here rather than by `find`
// so that the command needs nothing but Node. Under CI=true a skipped test fails the run: CI
// installs every tool, so a skip there can only mean a test that stopped testing.
//   --node24          run them on Node 24 with node:sqlite, as the desktop app runs the server
//   --dir=main/test   another folder of tests (the desktop app's)
//   --concurrency=N   test files at once (default 2)
import { spawn } from 'node:child_process';
import { buildServerBundle } from './server-bundle.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const flag = (name) => flags.find((f) => f.startsWith(`--${name}=`))?.slice(name.length + 3);
const node24 = flags.includes('--node24');
const dir = flag('dir') ?? 'server/test';
const concurrency = flag('concurrency') ?? '2';
const files = fs
  .readdirSync(path.join(root, dir), { recursive: true })
  .map(String)
  .filter((file) => file.endsWith('.test.ts') && !file.split(path.sep).includes('node_modules'))
  .map((file) => path.join(dir, file))
  .filter((file) => only.length === 0 || only.some((part) => file.includes(part)))
  .sort();

// The servers tests start as processes of their own (kill -9, restarts, refusals to start) run
// from one bundle of the server made here, as `npm start` runs dist/server.js: loading the
// sources through tsx cost each start about 1.5 CPU-s more, and a run makes some 150 of them.
// spawn.ts falls back to the sources under tsx when a test file runs without this script.
let bundle = null;
if (dir === 'server/test') {
  const cache = path.join(root, 'node_modules', '.cache');
  fs.mkdirSync(cache, { recursive: true });
  bundle = fs.mkdtempSync(path.join(cache, 'hearth-test-server-'));
  await buildServerBundle(root, bundle);
}

const tap = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-tests-')), 'results.tap');
const binary = node24 ? (await import('./node24.mjs')).node24Path() : process.execPath;
const child = spawn(
  binary,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    '--test-timeout=300000',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tap}`,
    ...files,
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      ...(node24 ? { HEARTH_SQLITE: 'node' } : {}),
      ...(bundle ? { HEARTH_TEST_SERVER_BUNDLE: bundle } : {}),
    },
  },
);
const code = await new Promise((resolve) => child.on('close', (status, signal) => resolve(status ?? (signal ? 1 : 0))));
if (bundle) fs.rmSync(bundle, { recursive: true, force: true });

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
