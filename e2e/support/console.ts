import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { mainNav } from './fixtures.ts';

/**
 * A folder that stands for a mounted drive in the console's specs: the server's mounts root,
 * so a folder in it can become a library without root. One per worker process.
 */
export function mountsRootForThisWorker(): string {
  const dir = path.join(os.tmpdir(), `hearth-e2e-mounts-${process.pid}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Opens a console page through the app's own navigation, as an owner would. */
export async function openConsole(page: Page, tab: 'Devices' | 'People' | 'Storage' | 'Connect phones' | 'Settings' | 'Status'): Promise<void> {
  if (!page.url().includes('/console')) {
    await mainNav(page).getByRole('link', { name: 'Manage' }).click();
  }
  await page.getByRole('navigation', { name: 'Manage Hearth' }).getByRole('link', { name: new RegExp(`^${tab}`) }).click();
  const heading = tab === 'Connect phones' ? "Connect your family's phones" : tab;
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}
