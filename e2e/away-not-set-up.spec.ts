import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';

/*
 * With neither Tailscale nor PUBLIC_URL, the Connect page says plainly that phones cannot
 * reach Hearth away from home, where to read how, and what Tailscale is in one sentence.
 */
test('the Connect page says away from home is not set up, and what Tailscale is', async ({ page, owner }, testInfo) => {
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const away = page.getByRole('region', { name: 'Away from home' });
  await expect(away).toContainText('Not set up. Away from home, phones can\'t reach Hearth yet. See "Away from home" in Hearth\'s README.');
  await expect(away).toContainText(
    "Tailscale is a free app that joins your family's phones and this PC into a private network of their own",
  );
  await expect(away.getByRole('textbox')).toHaveCount(0);
  await away.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'connect-away-not-set-up');
});
