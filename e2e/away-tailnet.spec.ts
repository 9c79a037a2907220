import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TailscaleCli } from '../server/test/helpers/tailscale-cli.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * With Tailscale up on the PC, the owner finds the tailnet address and the steps for the
 * family's phones on the Connect page, and the share dialog says a link works for anyone in
 * the tailnet. The `tailscale` CLI cannot run here (no daemon, no network): the server runs a
 * script that answers with a recorded `status --json` and an openssl certificate
 * (server/test/helpers/tailscale-cli.ts), the boundary to an external program.
 */
const cli = new TailscaleCli(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-tailscale-')));
test.use({ serverConfig: { tailscale: 'auto', tailscalePath: cli.command } });
test.afterAll(() => fs.rmSync(cli.dir, { recursive: true, force: true }));

const NAME = 'family-pc.tail1234.ts.net';

test('the Connect page shows the tailnet address, its code and the steps for a phone', async ({ page, owner, hearth }, testInfo) => {
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const away = page.getByRole('region', { name: 'Away from home' });
  await expect(away.getByText('Tailscale is on.')).toBeVisible();
  await expect(away.getByRole('textbox', { name: 'Address on Tailscale' })).toHaveValue(`https://${NAME}:${hearth.port}/`);
  await expect(away.getByRole('img', { name: `QR code of the Tailscale address https://${NAME}:${hearth.port}/` })).toBeVisible();
  await expect(away.getByRole('listitem')).toHaveText([
    /^On this PC: install Tailscale and sign in.*Done\.$/,
    'On each phone: install the Tailscale app from the App Store or Google Play, and sign in with the same account (or one you invited from Tailscale).',
    'Then open Hearth on the phone at the address shown here, with Tailscale on.',
  ]);
  await expect(away).toContainText(
    'Grandma can open it if her phone has Tailscale, signed in to your network. For anyone else it does not open.',
  );
  // Served over HTTPS with Tailscale's own certificate: no word about plain http.
  await expect(away.getByText('Tailscale encrypts everything between the phone and this PC')).toHaveCount(0);
  await away.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'connect-away-tailnet');
});

test('the share dialog says a link works for anyone in the tailnet', async ({ page, member, hearth }, testInfo) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Holiday' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Holiday' }).click();
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share “Holiday”' });
  const note = dialog.getByRole('note');
  await expect(note).toContainText('Links work for anyone in your tailnet.');
  await expect(note).toContainText("Someone who isn't on it can't open the link.");
  await expect(dialog.getByText('Links work at home only.')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Make a link' }).click();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Link address' })).toHaveValue(
    new RegExp(`^https://${NAME.replaceAll('.', '\\.')}:${hearth.port}/s/`),
  );
  await captureScreen(page, testInfo, 'share-tailnet');
});
