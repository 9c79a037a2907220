import { expect, signIn, test } from './support/fixtures.ts';

/*
 * An address under /console/ that is not a console page (an old bookmark, a typo) opens the
 * console's first page once. A relative redirect there was resolved against the whole address,
 * so /console/drives grew into /console/drives/devices/devices/… until the browser stopped answering.
 */
test.describe('an unknown console address', () => {
  test('goes to Devices once, and the page answers', async ({ page, owner }) => {
    await signIn(page, owner);
    for (const address of ['/console/drives', '/console/anything', '/console/drives/devices/devices', '/console/settings/old']) {
      const visited: string[] = [];
      const track = (frame: { url(): string; parentFrame(): unknown }) => {
        if (frame.parentFrame() === null) visited.push(new URL(frame.url()).pathname);
      };
      page.on('framenavigated', track);
      await page.goto(address);
      await expect(page.getByRole('heading', { level: 1, name: 'Devices' })).toBeVisible();
      expect(new URL(page.url()).pathname).toBe('/console/devices');
      // The tab still answers: a click on another console page works.
      await page
        .getByRole('navigation', { name: 'Manage Hearth' })
        .getByRole('link', { name: /^People/ })
        .click();
      await expect(page.getByRole('heading', { level: 1, name: 'People' })).toBeVisible();
      page.off('framenavigated', track);
      // Nothing was visited on the way but the address itself and the page it went to.
      expect(new Set(visited), visited.join(' → ')).toEqual(new Set([address, '/console/devices', '/console/people']));
    }
  });
});
