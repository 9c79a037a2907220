import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TailscaleCli } from '../server/test/helpers/tailscale-cli.ts';
import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner sets up Tailscale from the Connect page, not the README: what it is, the steps on
 * the PC and on each phone, a "Check it works" that asks the server what it sees now (it
 * otherwise looks only every few minutes), and what a shared link does for someone outside the
 * home. Tailscale is played by a script with recorded answers (server/test/helpers/tailscale-cli.ts):
 * stopped at first, then signed in, as the owner would.
 */
const cli = new TailscaleCli(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-tailscale-'))).status('stopped');
test.use({ serverConfig: { tailscale: 'auto', tailscalePath: cli.command, tailnetCheckIntervalMs: 3_600_000 } });
test.afterAll(() => fs.rmSync(cli.dir, { recursive: true, force: true }));

const NAME = 'family-pc.tail1234.ts.net';

test('the owner follows the steps, presses Check it works and gets the address phones open', async ({ page, owner, hearth }, testInfo) => {
  cli.status('stopped');
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const away = page.getByRole('region', { name: 'Away from home' });
  await expect(away).toContainText('Tailscale is a free app that links this PC and your family’s phones in a private network of your own');
  await expect(away.getByRole('status').first()).toContainText('Tailscale is installed on this PC but not on');
  await expect(away.getByRole('listitem')).toHaveText([
    /^On this PC: install Tailscale and sign in.*Get Tailscale for this PC$/,
    'On each phone: install the Tailscale app from the App Store or Google Play, and sign in with the same account (or one you invited from Tailscale).',
    'Then open Hearth on the phone at the address shown here, with Tailscale on.',
  ]);
  await expect(away.getByRole('link', { name: 'Get Tailscale for this PC' })).toHaveAttribute('href', 'https://tailscale.com/download');
  await expect(away).toContainText('A link you share opens only at home, on your Wi-Fi: someone outside your home cannot open it.');
  await away.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'connect-away-steps');

  // The owner signs in to Tailscale on the PC, then checks.
  cli.status('running');
  await away.getByRole('button', { name: 'Check it works' }).click();
  await expect(away.getByText('Checked just now: it works.')).toBeVisible();
  await expect(away.getByRole('status').first()).toContainText('Tailscale is on.');
  await expect(away.getByRole('textbox', { name: 'Address on Tailscale' })).toHaveValue(`https://${NAME}:${hearth.port}/`);
  await expect(away.getByRole('listitem').first()).toContainText('Done.');
  await expect(away).toContainText('A link you share opens only for people on your Tailscale network');
  await away.getByRole('button', { name: 'Check it works' }).scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'connect-away-checked');
});
