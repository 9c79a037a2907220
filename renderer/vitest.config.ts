import type { TestModule } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The web app's unit tests (`npm run test:web`): the pure logic the browser tests reach only
 * slowly (the upload queue's decisions, the gallery's layout, link expiry, the session and its
 * cross-tab lock), each `*.test.ts` beside the file it tests. They run in Node: the browser APIs
 * they need are fakes in src/testing/, or fake-indexeddb for IndexedDB.
 */
export default defineConfig({
  root: import.meta.dirname,
  test: {
    include: ['src/**/*.test.ts'],
    environment: 'node',
    // A zone behind UTC with daylight saving: midnight UTC is the day before here, and one day
    // of the year has 23 hours. Dates handled as UTC where they should be local (or the
    // reverse) show up.
    env: { TZ: 'America/New_York' },
    // it.only left in by mistake would silence the rest: refused under CI.
    allowOnly: !process.env.CI,
    reporters: ['default', { onTestRunEnd: failSkipsUnderCi }],
  },
});

/**
 * Under CI=true a skipped test fails the run, as in the node tiers (scripts/run-node-tests.mjs):
 * CI has every tool, so a skip there is a test that stopped testing.
 */
function failSkipsUnderCi(modules: ReadonlyArray<TestModule>): void {
  if (!process.env.CI) return;
  const skipped = modules.flatMap((module) => [...module.children.allTests()]).filter((test) => test.result().state === 'skipped');
  if (skipped.length === 0) return;
  for (const test of skipped) console.error(`skipped under CI: ${test.module.moduleId} > ${test.fullName}`);
  process.exitCode = 1;
}
