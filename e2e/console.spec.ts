import fs from 'node:fs';
import path from 'node:path';
import { openConsole, mountsRootForThisWorker } from './support/console.ts';
import { expect, signIn, test } from './support/fixtures.ts';
import { uniqueName } from './support/hearth.ts';
import { captureScreen } from './support/screens.ts';

/*
 * The owner's console, page by page: each one photographed at phone and desktop size in light
 * and dark and checked with axe, and each refusal the server can give shown in plain words.
 */
const mounts = mountsRootForThisWorker();
// Drive work through udisks2, whose service does not answer here: the capabilities block has something to say.
test.use({ serverConfig: { mountsRoots: [mounts], driveTools: 'udisks' } });

test.describe('the console', () => {
  test('every page, with something on it, is clear and accessible', async ({ page, hearth, owner }, testInfo) => {
    test.setTimeout(120_000);
    const grandma = await hearth.api.member(owner, uniqueName('grandma'));
    await hearth.api.ok('PATCH', `/admin/users/${grandma.id}`, owner.access, { quota_bytes: 5 * 1024 ** 3 });
    await hearth.api.ok('POST', '/admin/invites', owner.access, { label: 'Uncle Joe', expires_at: Date.now() + 7 * 86_400_000 });
    await signIn(page, owner);
    // Approval goes on after the owner's own sign-in; a member's new phone then waits.
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: true });
    try {
      const waiting = await hearth.api.call('POST', '/auth/login', undefined, {
        username: grandma.username,
        password: grandma.password,
        device_name: 'Pixel 8',
        platform: 'android',
      });
      expect(waiting.status).toBe(202);

      await openConsole(page, 'Devices');
      const request = page.getByRole('listitem').filter({ hasText: `Pixel 8 wants to open ${grandma.username}'s account` });
      await expect(request.getByLabel(`Pairing code ${waiting.body.pairing_code.split('').join(' ')}`)).toBeVisible();
      await expect(
        request.getByText('If nobody is setting up a new device right now, someone may be trying to get in: deny.'),
      ).toBeVisible();
      await expect(page.getByRole('region', { name: `Devices of ${grandma.username}` })).toBeVisible();
      await captureScreen(page, testInfo, 'console-devices');
      await request.getByRole('button', { name: `Deny Pixel 8 for ${grandma.username}` }).click();
      await expect(page.getByText('No device is waiting.')).toBeVisible();
      expect(
        (await hearth.api.call('GET', `/auth/session/${waiting.body.session_id}/status`, waiting.body.access_token)).body.error.code,
      ).toBe('device_denied');
      // Her signed-in device is signed out from here, for good.
      await page
        .getByRole('region', { name: `Devices of ${grandma.username}` })
        .getByRole('button', { name: /^Sign out / })
        .click();
      await expect(page.getByRole('region', { name: `Devices of ${grandma.username}` })).toHaveCount(0);
      expect((await hearth.api.call('GET', '/me', grandma.access)).status).toBe(401);
    } finally {
      await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: false });
    }

    await openConsole(page, 'People');
    await expect(page.getByRole('listitem').filter({ hasText: 'Uncle Joe' }).getByText('Not used yet')).toBeVisible();
    await expect(page.getByRole('meter', { name: `Space used by ${grandma.username}` })).toHaveAttribute(
      'aria-valuetext',
      /of 5\.0 GB used/,
    );
    await captureScreen(page, testInfo, 'console-people');

    // A storage limit, then switching the account off and on again.
    await page.getByRole('button', { name: `Storage limit of ${grandma.username}` }).click();
    await page.getByRole('dialog').getByLabel('Limit in GB').fill('2');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('meter', { name: `Space used by ${grandma.username}` })).toHaveAttribute(
      'aria-valuetext',
      /of 2\.0 GB used/,
    );
    await page.getByRole('button', { name: `Switch off ${grandma.username}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Switch off' }).click();
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: grandma.username }) });
    await expect(card.getByText('Switched off')).toBeVisible();
    expect(
      (await hearth.api.call('POST', '/auth/login', undefined, { username: grandma.username, password: grandma.password })).body.error.code,
    ).toBe('account_disabled');
    await page.getByRole('button', { name: `Switch on ${grandma.username}` }).click();
    await expect(card.getByText('Switched off')).toHaveCount(0);

    await page.getByRole('button', { name: 'Invite someone' }).click();
    await page.getByLabel('Who is it for?').fill('Cousin Amy');
    await page.getByRole('button', { name: 'Make an invite' }).click();
    const link = page.getByRole('textbox', { name: 'Invite link' });
    await expect(link).toHaveValue(new RegExp(`/invite/`));
    await expect(page.getByRole('img', { name: 'QR code of the invite link for Cousin Amy' })).toBeVisible();
    await captureScreen(page, testInfo, 'console-invite');
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: `New password for ${grandma.username}` }).click();
    await page.getByRole('button', { name: 'Make a temporary password' }).click();
    const temporary = await page.getByRole('textbox', { name: 'Temporary password' }).inputValue();
    expect(temporary.length).toBeGreaterThanOrEqual(10);
    await captureScreen(page, testInfo, 'console-password');
    await page.getByRole('button', { name: 'Done' }).click();
    // The temporary password really is the account's now.
    expect((await hearth.api.call('POST', '/auth/login', undefined, { username: grandma.username, password: temporary })).status).toBe(200);

    await openConsole(page, 'Storage');
    await expect(page.getByRole('listitem').filter({ hasText: 'New files go here' })).toBeVisible();
    const allow = page.getByRole('region', { name: 'What this PC does not allow yet' });
    const drives = await hearth.api.ok('GET', '/admin/drives', owner.access);
    if (drives.items.some((d: { system: boolean }) => !d.system)) {
      await expect(allow.getByText('Hearth cannot erase drives here.')).toBeVisible();
      await expect(allow.getByText('Hearth cannot open drives for files here.')).toBeVisible();
    } else {
      // A PC with its own disk alone: nothing to erase or combine, so nothing about what is not allowed.
      await expect(page.getByText('Only this PC’s own disk is here.')).toBeVisible();
      await expect(allow).toHaveCount(0);
    }
    await captureScreen(page, testInfo, 'console-storage');

    await openConsole(page, 'Connect phones');
    await captureScreen(page, testInfo, 'console-connect');

    await openConsole(page, 'Settings');
    await captureScreen(page, testInfo, 'console-settings');

    await openConsole(page, 'Status');
    await expect(page.getByText(hearth.dataDir)).toBeVisible();
    await captureScreen(page, testInfo, 'console-status');
  });

  test("the server's refusals read as plain sentences: ejecting where new files go, the last owner; the system drive is never offered for erasing", async ({
    page,
    hearth,
    owner,
  }, testInfo) => {
    const folder = fs.mkdtempSync(path.join(mounts, 'usb-'));
    const library = await hearth.api.ok('POST', '/libraries', owner.access, { name: 'USB stick', path: folder, make_default: true });
    try {
      await signIn(page, owner);
      await openConsole(page, 'Storage');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'USB stick' }) });
      await card.getByRole('button', { name: 'Eject USB stick' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Eject' }).click();
      await expect(page.getByRole('dialog').getByRole('alert')).toHaveText('Choose another place for new files before ejecting this one.');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // The owner cannot take away the server's only owner.
      await openConsole(page, 'People');
      await expect(page.getByRole('button', { name: `Switch off ${owner.username}` })).toHaveCount(0);
    } finally {
      const internal = (await hearth.api.ok('GET', '/libraries', owner.access)).items.find((l: any) => l.kind === 'internal');
      await hearth.api.ok('PATCH', `/libraries/${internal.id}/set-default`, owner.access);
      await hearth.api.ok('DELETE', `/libraries/${library.id}`, owner.access);
    }
    // Back on the page: the internal place takes new files again, and the USB stick is gone.
    await openConsole(page, 'Storage');
    await expect(page.getByRole('heading', { name: 'USB stick' })).toHaveCount(0);

    // Issue 19, finding 16: the drive the PC runs from is named in a parent's words, its Linux
    // names are a disclosure away, and nothing offers to erase it.
    const system = (await hearth.api.ok('GET', '/admin/drives', owner.access)).items.find((d: any) => d.system && d.kind === 'disk');
    test.skip(!system, 'this machine shows no system disk to the server (no lsblk?)');
    const card = page
      .getByRole('list', { name: 'Drives' })
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: "The computer's own disk", exact: true }) });
    await expect(card).toBeVisible();
    await expect(card.getByText('This PC runs from it, and Hearth keeps its own data on it, so Hearth never erases it.')).toBeVisible();
    await expect(card.getByRole('button', { name: /^Erase/ })).toHaveCount(0);
    await expect(card.getByText(system.device, { exact: true })).toBeHidden();
    await expect(card.getByText('None found')).toHaveCount(0);
    await card.getByText('Technical details').click();
    await expect(card.getByText(system.device, { exact: true })).toBeVisible();
    await card.scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'console-system-drive');
  });

  test('removing a place whose holding folder still keeps what a clean-up took says from which day it can go', async ({
    page,
    hearth,
    owner,
  }, testInfo) => {
    const folder = fs.mkdtempSync(path.join(mounts, 'usb-'));
    const library = await hearth.api.ok('POST', '/libraries', owner.access, { name: 'Old USB stick', path: folder });
    const today = new Date().toISOString().slice(0, 10);
    const held = path.join(folder, 'holding', today, 'blobs', '01JHELDBYTHECLEANUP000000');
    fs.mkdirSync(path.dirname(held), { recursive: true });
    fs.writeFileSync(held, 'taken by a clean-up');
    const from = new Date(Date.parse(`${today}T00:00:00Z`) + 31 * 86_400_000).toISOString().slice(0, 10);
    try {
      await signIn(page, owner);
      await openConsole(page, 'Storage');
      const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Old USB stick' }) });
      await card.getByRole('button', { name: 'Remove Old USB stick' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
      const refusal = page.getByRole('dialog').getByRole('alert');
      await expect(refusal).toContainText('set aside files here that looked unused');
      await expect(refusal).toContainText(`This place can be removed from ${from} on.`);
      await captureScreen(page, testInfo, 'console-remove-holding');
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      expect(fs.readFileSync(held, 'utf8')).toBe('taken by a clean-up');
    } finally {
      fs.rmSync(path.join(folder, 'holding'), { recursive: true, force: true });
      await hearth.api.ok('DELETE', `/libraries/${library.id}`, owner.access);
    }
  });

  test('a family member who opens an owner page is told plainly that it is for the owner', async ({ page, member }) => {
    await signIn(page, member);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Manage' })).toHaveCount(0);
    for (const where of ['/console/devices', '/console/storage']) {
      await page.goto(where);
      await expect(page.getByRole('heading', { level: 1, name: 'Only the owner can open this page' })).toBeVisible();
    }
    await page.getByRole('link', { name: 'Back to my files' }).click();
    await expect(page.getByRole('heading', { name: 'My files' })).toBeVisible();
  });
});
