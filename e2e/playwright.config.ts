import os from 'node:os';
import { defineConfig, devices } from '@playwright/test';
import type { World } from './support/fixtures.ts';

/**
 * Browser tests in Debian's Chromium (Playwright's own browser download is unreachable here).
 * Each worker runs the real server. A worker alone keeps about half a core busy (measured on
 * two cores: 36 CPU-s over a spec's 65 s; the rest is waiting on the server, timers and
 * polls), so three workers on two cores fill the machine where two left it half idle.
 * HEARTH_E2E_WORKERS overrides (or --workers on the command line).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath: CHROMIUM,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    // A LAN-like name for the same server: not a secure context.
    '--host-resolver-rules=MAP hearth.local 127.0.0.1',
  ],
};

const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: devices['Pixel 7']!.userAgent,
};
const desktop = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };
const workers = Number(process.env.HEARTH_E2E_WORKERS) || Math.max(2, Math.round(os.availableParallelism() * 1.5));

export default defineConfig<{ world: World }>({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results/e2e',
  fullyParallel: false,
  workers,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: '../test-results/e2e-report' }]] : [['list']],
  use: {
    launchOptions,
    // A failed test keeps its trace (each action's DOM snapshot, network, console) and a
    // screenshot of the moment it failed. The trace's film strip is left out: screencasting
    // every frame (3x pixels on the phone) took 10-15% of a phone spec's CPU, browser
    // included, for every test, to be thrown away when it passed. `--trace=on` brings it back.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    browserName: 'chromium',
  },
  projects: [
    // The phone's HTTPS story launches its own phones (browsers with their own certificates): it runs under phone.
    { name: 'desktop', use: { ...desktop, world: 'secure' }, testIgnore: /home-https\.spec\.ts/ },
    // The appliance's story makes its own desktop and phone contexts: it runs once, under desktop.
    { name: 'phone', use: { ...phone, world: 'secure' }, testIgnore: /console-story\.spec\.ts|back-up-a-folder\.spec\.ts/ },
    // The key flows again where a phone meets the app: plain HTTP under a LAN name.
    { name: 'phone-lan', use: { ...phone, world: 'lan' }, grep: /@lan/ },
  ],
});
