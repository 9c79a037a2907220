import type { Page } from '@playwright/test';
import { expectServiceWorkerControls, expectSharedListed, shareToHearth, SHARED_SCREEN } from './support/app-install.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';

/*
 * Issue 30, finding 8: on a tablet the family shares, what one person shared to Hearth and did
 * not save yet must not be shown to the next person who signs in. Each share waits for the
 * account signed in when it arrived, and for that account only.
 */

async function signOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).locator('visible=true').getByRole('link', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
}

test('what Mum shared and did not save is not shown to the child who signs in next, and is still there for Mum', async ({
  page,
  baseURL,
  hearth,
  owner,
}) => {
  const mum = await hearth.api.member(owner, uniqueName('mum'));
  const child = await hearth.api.member(owner, uniqueName('child'));
  await expectServiceWorkerControls(page, baseURL!);
  await signIn(page, mum);
  // The test's stand-in for the Share sheet is a form it adds to a page without fixed bars over it.
  await page.goto('/app-setup');
  await shareToHearth(page, baseURL!, [{ name: 'Payslip.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 payslip') }]);
  await expectSharedListed(page, ['Payslip.pdf']);
  await signOut(page);

  await signIn(page, child);
  await page.goto(SHARED_SCREEN);
  await expect(page.getByText('Nothing is waiting to be saved.')).toBeVisible();
  await expect(page.getByText('Payslip.pdf')).toHaveCount(0);
  await signOut(page);

  await signIn(page, mum);
  await page.goto(SHARED_SCREEN);
  await expectSharedListed(page, ['Payslip.pdf']);
});
