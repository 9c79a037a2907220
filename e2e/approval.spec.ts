import { expect, test } from './support/fixtures.ts';
import type { Page } from '@playwright/test';

async function startSignIn(page: Page, account: { username: string; password: string }) {
  // My files' address: the app's own opens Photos on a phone.
  await page.goto('/files');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
}

test.describe('device approval', () => {
  // The member signs in through the API before approval is switched on: that session approves.
  test.beforeEach(async ({ hearth, owner, member }) => {
    expect(member.access).toBeTruthy();
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: true });
  });
  test.afterEach(async ({ hearth, owner }) => {
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: false });
  });

  test('a new phone waits for approval, and goes on by itself once approved from another session', async ({ page, member, hearth }) => {
    await startSignIn(page, member);
    const pending = await hearth.api.ok('GET', '/devices/pending', member.access);
    expect(pending.items).toHaveLength(1);
    // A few polls go by first: the screen keeps waiting without asking faster than the server allows.
    await page.waitForTimeout(4_500);
    await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
    await hearth.api.ok('POST', `/devices/${pending.items[0].id}/approve`, member.access);
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible({ timeout: 15_000 });
    // A reload keeps the approved session.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  });

  test('a refused phone is told plainly, and can go back to the sign-in screen', async ({ page, member, hearth }) => {
    await startSignIn(page, member);
    const pending = await hearth.api.ok('GET', '/devices/pending', member.access);
    await hearth.api.ok('POST', `/devices/${pending.items[0].id}/deny`, member.access);
    await expect(page.getByRole('heading', { name: 'This device was not let in' })).toBeVisible({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Back to sign-in' }).click();
    await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
  });
});
