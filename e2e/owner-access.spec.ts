import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from '@playwright/test';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { startHearth, type Hearth } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner's way in. A locked-out owner (device approval on, the only session ended by
 * refresh-token reuse, as a restored browser profile does) waits for an approval nobody can
 * give, follows "Owner locked out?", makes a code at the PC with `npm run owner -- reset`, and
 * is back in with a new password. First-run setup: from another device it asks for the setup
 * code the server printed; in the desktop app it goes through the window's bridge only.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** `npm run owner -- reset` at the PC, with the server's DATA_DIR; the code it printed. */
function ownerResetCode(dataDir: string): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/owner.ts'), 'reset'], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const match = /^ {4}([0-9A-Z-]{31})$/m.exec(out);
      if (code === 0 && match) resolve(match[1]!);
      else reject(new Error(`npm run owner -- reset exited ${code}:\n${out}`));
    });
  });
}

test.describe('Owner locked out?', () => {
  let hearth: Hearth;
  const owner = { username: 'dad', password: 'our family photos 1' };

  test.beforeAll(async () => {
    hearth = await startHearth();
    const first = await hearth.api.setupOwner(owner.username, owner.password);
    await hearth.api.ok('PATCH', '/server/settings', first.access, { require_device_approval: true });
    // Refresh-token reuse ends the owner's only session: no device is left to approve from.
    await hearth.api.ok('POST', '/auth/refresh', undefined, { refresh_token: first.refresh });
    expect((await hearth.api.call('POST', '/auth/refresh', undefined, { refresh_token: first.refresh })).status).toBe(401);
  });
  test.afterAll(async () => {
    await hearth?.stop();
  });

  test('the owner who waits for an approval nobody can give makes a code at the PC and is back in with a new password', async ({
    browser,
  }, testInfo) => {
    const context = await browser.newContext({ ...testInfo.project.use, baseURL: hearth.url });
    const page = await context.newPage();

    await test.step('signing in with the password waits for approval', async () => {
      await page.goto('/');
      await page.getByLabel('Username').fill(owner.username);
      await page.getByLabel('Password').fill(owner.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Owner locked out?' })).toBeVisible();
      await captureScreen(page, testInfo, 'owner-waiting');
    });

    await test.step('"Owner locked out?" says in plain words what to do at the PC', async () => {
      await page.getByRole('link', { name: 'Owner locked out?' }).click();
      await expect(page.getByRole('heading', { name: 'Owner locked out?' })).toBeVisible();
      await expect(page.getByText('Owner locked out? Make a recovery code', { exact: true })).toBeVisible();
      await expect(page.getByText('npm run owner -- reset')).toBeVisible();
      await captureScreen(page, testInfo, 'owner-recover');
    });

    await test.step('a wrong code is refused plainly', async () => {
      await page.getByLabel('Recovery code').fill('AAAAA-BBBBB-CCCCC-DDDDD-EEEEE-F');
      await page.getByLabel('New password').fill('a fresh start 2024');
      await page.getByRole('button', { name: 'Set the password and sign in' }).click();
      await expect(page.getByRole('alert')).toHaveText(
        'That recovery code is not right, or it was already used. Make a new one at the PC.',
      );
      await page.getByRole('alert').scrollIntoViewIfNeeded();
      await captureScreen(page, testInfo, 'owner-recover-error');
    });

    await test.step('the code from `npm run owner -- reset` signs the owner in, no approval needed', async () => {
      const code = await ownerResetCode(hearth.dataDir);
      await page.getByLabel('Recovery code').fill(code.toLowerCase());
      await page.getByRole('button', { name: 'Set the password and sign in' }).click();
      await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
      await page.reload();
      await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
    });

    await test.step('the old password is gone, the new one works (and still waits for approval elsewhere)', async () => {
      expect((await hearth.api.call('POST', '/auth/login', undefined, owner)).status).toBe(401);
      expect((await hearth.api.call('POST', '/auth/login', undefined, { ...owner, password: 'a fresh start 2024' })).status).toBe(202);
    });
    await context.close();
  });
});

test.describe('the main owner among owners', () => {
  let hearth: Hearth;
  test.afterAll(async () => {
    await hearth?.stop();
  });

  test('a second owner sees the account that set Hearth up as "Main owner", with no switch-off, demotion or new password to offer', async ({
    browser,
  }, testInfo) => {
    hearth = await startHearth();
    const main = await hearth.api.setupOwner('dad', 'our family photos 1');
    const invite = await hearth.api.ok('POST', '/admin/invites', main.access, { role: 'admin' });
    await hearth.api.ok('POST', '/auth/register', undefined, {
      username: 'mum',
      password: 'our family photos 2',
      invite_code: invite.code,
    });
    const context = await browser.newContext({ ...testInfo.project.use, baseURL: hearth.url });
    const page = await context.newPage();
    await signIn(page, { username: 'mum', password: 'our family photos 2' });
    await openConsole(page, 'People');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'dad' }) });
    await expect(card.getByText('Main owner')).toBeVisible();
    for (const action of ['Switch off dad', 'Make dad a family member', 'New password for dad']) {
      await expect(card.getByRole('button', { name: action })).toHaveCount(0);
    }
    await expect(card.getByRole('button', { name: 'Storage limit of dad' })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'console-people-main-owner');
    await context.close();
  });
});

test.describe('first-run setup', () => {
  let hearth: Hearth;
  test.afterEach(async () => {
    await hearth?.stop();
  });

  test('from another device it asks for the setup code the server printed, and refuses a wrong one', async ({ browser }, testInfo) => {
    hearth = await startHearth();
    // A request relayed from the network (a proxy on this PC): the server cannot treat it as the PC.
    const context = await browser.newContext({
      ...testInfo.project.use,
      baseURL: hearth.url,
      extraHTTPHeaders: { 'X-Forwarded-For': '192.168.1.50' },
    });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Set up Hearth' })).toBeVisible();
    await page.getByLabel('Your username').fill('dad');
    await page.getByLabel('Password', { exact: true }).fill('our family photos 1');
    await expect(page.getByLabel('Setup code')).toBeVisible();
    await captureScreen(page, testInfo, 'setup-code');

    await page.getByLabel('Setup code').fill('0000-0000');
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'That setup code is not right. Check the code shown on the PC where Hearth was started.',
    );

    const printed = (await hearth.setupCode())!;
    await page.getByLabel('Setup code').fill(printed.code);
    await page.getByRole('button', { name: 'Create the owner account' }).click();
    // Setup's last step offers backups; the owner leaves it for later.
    await expect(page.getByRole('heading', { level: 1, name: "Keep a copy of your family's files" })).toBeVisible();
    await page.getByRole('button', { name: 'Later' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Hearth is ready' })).toBeVisible();
    await context.close();
  });

  test('in the desktop app it happens in the window through the app; a browser is told to use the app, and the network route is shut', async ({
    browser,
  }, testInfo) => {
    hearth = await startHearth({ hostedSetup: true });
    const plain = await browser.newContext({ ...testInfo.project.use, baseURL: hearth.url });
    const browserPage = await plain.newPage();
    await browserPage.goto('/');
    await expect(browserPage.getByRole('heading', { name: 'Set up Hearth in its app' })).toBeVisible();
    await captureScreen(browserPage, testInfo, 'setup-in-app');
    const refused = await hearth.api.call('POST', '/setup', undefined, { username: 'mallory', password: 'mallory-password-1' });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'setup_in_app']);

    const windowContext = await browser.newContext({ ...testInfo.project.use, baseURL: hearth.url });
    await asDesktopWindowWithSetup(windowContext, hearth);
    const window = await windowContext.newPage();
    await window.goto('/');
    await expect(window.getByRole('heading', { name: 'Set up Hearth' })).toBeVisible();
    await expect(window.getByLabel('Setup code')).toHaveCount(0);
    await window.getByLabel('Name of this Hearth').fill('The Millers');
    await window.getByLabel('Your username').fill('dad');
    await window.getByLabel('Password', { exact: true }).fill('short');
    await window.getByRole('button', { name: 'Create the owner account' }).click();
    // The form says what is wrong beside the field before anything is sent.
    await expect(window.getByRole('alert')).toHaveText('A password needs at least 10 characters; this one has 5.');
    await window.getByLabel('Password', { exact: true }).fill('our family photos 1');
    await window.getByRole('button', { name: 'Create the owner account' }).click();
    // In the desktop window too, setup's last step offers backups.
    await expect(window.getByRole('heading', { level: 1, name: "Keep a copy of your family's files" })).toBeVisible();
    await window.getByRole('button', { name: 'Later' }).click();
    await expect(window.getByRole('heading', { level: 1, name: 'Hearth is ready' })).toBeVisible();
    expect((await hearth.api.ok('GET', '/status')).name).toBe('The Millers');
    await plain.close();
    await windowContext.close();
  });
});

/** The desktop window's bridge as the preload exposes it, with setup reaching the server in-process (serve.ts). */
async function asDesktopWindowWithSetup(context: BrowserContext, hearth: Hearth): Promise<void> {
  await context.exposeBinding('__hearthLocalSession', () => hearth.localSession());
  await context.exposeBinding('__hearthSetup', (_source, input: { username: string; password: string; server_name?: string }) =>
    hearth.setupThroughApp(input),
  );
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    Object.defineProperty(window, 'hearthDesktop', {
      value: Object.freeze({
        localSession: () => w.__hearthLocalSession!(),
        copyText: () => Promise.resolve(),
        setup: (input: unknown) => w.__hearthSetup!(input),
        isDesktop: true,
      }),
    });
  });
}
