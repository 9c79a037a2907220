import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeOlderAuthority } from '../server/test/helpers/older-authority.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 30, finding 11: a family whose Hearth made its certificate authority before it was
 * limited to Hearth (issue 24) keeps it, since their phones trust it; the Connect page says what
 * it can vouch for and lets the owner make a new one, saying that each phone then sets Hearth up
 * again. This worker's server starts on a data folder holding such an authority.
 */

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-older-ca-'));
const older = writeOlderAuthority(dataDir);
test.use({ serverConfig: { dataDir } });

test('an older certificate is explained on the Connect page, and the owner makes a new one that vouches for Hearth alone', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const card = page.getByRole('region', { name: 'Make Hearth an app on each phone' });
  const fingerprint = card.getByLabel('Fingerprint of Hearth home network');
  await expect(fingerprint).toHaveText(older.fingerprint);
  await expect(card.getByText('made by an earlier version of Hearth', { exact: false })).toBeVisible();
  await card.getByRole('button', { name: 'Make a new certificate' }).scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'console-connect-older-certificate');

  await card.getByRole('button', { name: 'Make a new certificate' }).click();
  const dialog = page.getByRole('dialog', { name: 'Make a new certificate?' });
  await expect(dialog.getByText('stop opening it privately until you set each one up again', { exact: false })).toBeVisible();
  await captureScreen(page, testInfo, 'console-connect-new-certificate-confirm');
  await dialog.getByRole('button', { name: 'Make a new certificate' }).click();
  await expect(card.getByText('A new certificate is ready.', { exact: false })).toBeVisible({ timeout: 30_000 });
  const offer = await hearth.api.ok<{ authority_fingerprint_sha256: string }>('GET', '/server/https');
  expect(offer.authority_fingerprint_sha256).not.toBe(older.fingerprint);
  await expect(fingerprint).toHaveText(offer.authority_fingerprint_sha256);
  await expect(card.getByRole('button', { name: 'Make a new certificate' })).toHaveCount(0);
  await captureScreen(page, testInfo, 'console-connect-new-certificate');
});
