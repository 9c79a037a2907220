import { openConsole } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';

/*
 * With a reverse proxy or tunnel (PUBLIC_URL) and no TRUSTED_PROXIES, the Connect page gives
 * the address from anywhere and warns that everyone through the proxy counts as one visitor.
 * (Nothing is sent to the address: it only shapes what is shown.)
 */
test.use({ serverConfig: { publicUrl: 'https://hearth.example.org' } });

test('the Connect page shows the public address and the missing TRUSTED_PROXIES', async ({ page, owner }) => {
  await signIn(page, owner);
  await openConsole(page, 'Connect phones');
  const away = page.getByRole('region', { name: 'Away from home' });
  await expect(away.getByRole('textbox', { name: 'Address from anywhere' })).toHaveValue('https://hearth.example.org/');
  await expect(away).toContainText('TRUSTED_PROXIES is not set');
});
