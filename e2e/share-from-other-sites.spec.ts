import { expectNothingWaiting, expectServiceWorkerControls } from './support/app-install.ts';
import { startOtherSite } from './support/other-site.ts';
import { expect, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 30, finding 8: Hearth's Share target takes what the phone's Share menu sends. Any
 * website could post files there too, and they would wait in Save to Hearth as if the family had
 * shared them. The app's service worker refuses a post the browser says another site's page made
 * (its Origin, its referrer, or the page that posted), and the server does the same before the
 * worker runs (Sec-Fetch-Site): nothing of it waits on the phone.
 */

test('a page of another site posting files to Hearth drops nothing into Save to Hearth, even hiding where it is', async ({
  page,
  baseURL,
  member,
}, testInfo) => {
  const other = await startOtherSite(`${baseURL}/share-target`);
  try {
    await expectServiceWorkerControls(page, baseURL!);
    for (const path of ['/', '/hidden']) {
      await page.goto(`${other.url}${path}`);
      await page.getByRole('button', { name: 'Win a prize' }).click();
      await page.waitForURL((url) => url.pathname === '/shared-with-hearth');
      expect(new URL(page.url()).search, path).toBe('?share=refused');
    }
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Another website tried to send files to Hearth. Nothing was kept', { exact: false })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Shared with Hearth' })).toHaveCount(0);
    await captureScreen(page, testInfo, 'share-target-refused');
    await expectNothingWaiting(page, baseURL!);
  } finally {
    await other.close();
  }
});

test('before the service worker runs, the server refuses another site’s post with the error envelope', async ({
  browser,
  baseURL,
  hearth,
  owner,
}, testInfo) => {
  const member = await hearth.api.member(owner, uniqueName('first'));
  const other = await startOtherSite(`${baseURL}/share-target`);
  const { viewport, deviceScaleFactor, isMobile, hasTouch, userAgent } = testInfo.project.use;
  const context = await browser.newContext({ viewport, deviceScaleFactor, isMobile, hasTouch, userAgent, serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    await page.goto(other.url);
    const answer = page.waitForResponse((response) => response.url() === `${baseURL}/share-target`);
    await page.getByRole('button', { name: 'Win a prize' }).click();
    expect((await answer).status()).toBe(403);
    await expect(page.getByText('"share_from_other_site"', { exact: false })).toBeVisible();
    const root = await hearth.api.ok<{ items: unknown[] }>('GET', '/nodes?parent_id=root', member.access);
    expect(root.items).toEqual([]);
  } finally {
    await context.close();
    await other.close();
  }
});
