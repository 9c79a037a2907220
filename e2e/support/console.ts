import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { mainNav } from './fixtures.ts';
import type { Hearth } from './hearth.ts';

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
export async function openConsole(
  page: Page,
  tab: 'Devices' | 'People' | 'Storage' | 'Backups' | 'Connect phones' | 'Settings' | 'Status',
): Promise<void> {
  if (!page.url().includes('/console')) {
    await mainNav(page).getByRole('link', { name: 'Manage' }).click();
  }
  await page
    .getByRole('navigation', { name: 'Manage Hearth' })
    .getByRole('link', { name: new RegExp(`^${tab}`) })
    .click();
  const heading = tab === 'Connect phones' ? "Connect your family's phones" : tab;
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/**
 * Makes every page of `context` a window of the desktop app: `window.hearthDesktop` as the
 * preload exposes it (frozen, named functions only), its `localSession()` answered by the
 * server's in-process door (see serve.ts), never by HTTP. Returns what `copyText` was given.
 */
export async function asDesktopWindow(context: BrowserContext, hearth: Hearth): Promise<{ copied: string[] }> {
  const copied: string[] = [];
  await context.exposeBinding('__hearthLocalSession', () => hearth.localSession());
  await context.exposeBinding('__hearthCopyText', (_source, text: string) => {
    copied.push(text);
  });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    Object.defineProperty(window, 'hearthDesktop', {
      value: Object.freeze({
        localSession: () => w.__hearthLocalSession!(),
        copyText: (text: string) => w.__hearthCopyText!(String(text)).then(() => undefined),
        isDesktop: true,
      }),
    });
  });
  return { copied };
}
