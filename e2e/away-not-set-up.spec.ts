import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * With neither Tailscale nor PUBLIC_URL, the Connect page says plainly that phones cannot
 * reach Hearth away from home, what Tailscale is in one sentence, and the steps to set it up.
 * Tailscale is looked for at a path where there is none: as on a PC that never installed it.
 */
test.use({ serverConfig: { tailscale: 'auto', tailscalePath: '/nonexistent/hearth-e2e/tailscale' } });

test('the Connect page says away from home is not set up, and what Tailscale is', async ({ page, owner }, testInfo) => {
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const away = page.getByRole('region', { name: 'Away from home' });
  await expect(away).toContainText('Not set up yet. Away from home, phones can’t reach Hearth. Follow the steps below.');
  await expect(away).toContainText('Tailscale is a free app that links this PC and your family’s phones in a private network of your own');
  await expect(away.getByRole('textbox')).toHaveCount(0);
  await away.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'connect-away-not-set-up');
});
