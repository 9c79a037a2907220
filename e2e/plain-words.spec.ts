import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { openConsole } from './support/console.ts';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uniqueName, type Account, type Api } from './support/hearth.ts';
import { mediaFixture, photo, processed, upload } from './support/media.ts';
import { captureScreen } from './support/screens.ts';

/*
 * Issue 32, item 12: words a parent would stumble on, each where a family meets it, at phone
 * and desktop size. The rest of the item is checked where its flow already runs: "Done" after
 * every photo is sent and the folder named "Kid’s phone" (phone-backup.spec.ts), "Don’t send
 * them" (long-names.spec.ts), a new member on Photos (invite.spec.ts), the one-disk PC
 * (console.spec.ts).
 */

async function backUp(api: Api, owner: Account, destinationId: string): Promise<{ state: string }> {
  const run = await api.ok('POST', `/admin/backup/destinations/${destinationId}/run`, owner.access);
  for (;;) {
    const now = await api.ok('GET', `/admin/backup/runs/${run.id}`, owner.access);
    if (now.state !== 'running') return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const files = (page: Page) => page.getByRole('list', { name: 'Files and folders' });

test('sharing all your photos reads "Sees all your photos", and its partner sees "Shares all their photos"', async ({
  page,
  hearth,
  owner,
  member,
}, testInfo) => {
  const dad = await hearth.api.member(owner, uniqueName('dad'));
  await hearth.api.ok('POST', '/partner-shares', member.access, { user_id: dad.id });
  await hearth.api.ok('POST', '/partner-shares', dad.access, { user_id: member.id });
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  const given = page.getByRole('list', { name: 'People you share your photos with' });
  await expect(given).toContainText('Sees all your photos');
  await expect(page.getByText('Sees your all photos')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'People who share their photos with you' })).toContainText(
    'Shares all their photos with you',
  );
  await given.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'words-partners');
});

test('one word for the star: Favourites in My files and in Photos, and a photo with a video is never "2 items"', async ({
  page,
  hearth,
  member,
}, testInfo) => {
  const taken = await upload(hearth.api, member, await photo('2024:05:06 07:08:09'), 'Beach.jpg');
  const clip = await upload(hearth.api, member, await mediaFixture('clip.mp4'), 'clip.mp4');
  await processed(hearth.api, member, [taken, clip]);
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
  await signIn(page, member);

  // My files: "Favourite", and the Favourites view, not "Star" and "Starred".
  await page.getByRole('button', { name: 'More for Recipes' }).click();
  await page.getByRole('list', { name: 'Actions for Recipes' }).getByRole('button', { name: 'Favourite', exact: true }).click();
  await page.getByRole('link', { name: 'Favourites' }).locator('visible=true').first().click();
  await expect(page.getByRole('heading', { name: 'Favourites', level: 1 })).toBeVisible();
  await expect(files(page).getByRole('listitem')).toHaveCount(1);
  await expect(page.getByText('Starred', { exact: true })).toHaveCount(0);
  await captureScreen(page, testInfo, 'words-favourites');

  // Photos: a photo and a video chosen together are "1 photo and 1 video".
  await mainNav(page).locator('visible=true').getByRole('link', { name: 'Photos' }).click();
  await page.getByRole('button', { name: 'Select', exact: true }).click();
  await page.getByRole('button', { name: /^Photo Beach\.jpg/ }).click();
  await page.getByRole('button', { name: /^Video clip\.mp4/ }).click();
  const bar = page.getByRole('toolbar', { name: 'Selected photos' });
  const favourite = bar.getByRole('button', { name: 'Favourite', exact: true });
  if (!(await favourite.isVisible())) await bar.getByRole('button', { name: 'More', exact: true }).click();
  await page.getByRole('button', { name: 'Favourite', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: 'favourites now' })).toHaveText(
    '1 photo and 1 video are favourites now: find them in Favourites too.',
  );
});

test('a family member waiting for approval is not offered "Owner locked out?"', async ({ page, hearth, owner, member }, testInfo) => {
  await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: true });
  try {
    await page.goto('/files');
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Waiting for approval' })).toBeVisible();
    await expect(page.getByText('This page goes on by itself once approved.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Owner locked out?' })).toHaveCount(0);
    await captureScreen(page, testInfo, 'words-member-waiting');
  } finally {
    await hearth.api.ok('PATCH', '/server/settings', owner.access, { require_device_approval: false });
  }
});

test('the ticked playback copies box says what On does, not "Off: no new copies are made"', async ({ page, owner }, testInfo) => {
  await signIn(page, owner);
  await openConsole(page, 'Storage');
  const box = page.getByRole('checkbox', { name: /Make copies of videos that some browsers can't play/ });
  await expect(box).toBeChecked();
  await expect(page.getByText('On: each such video gets a copy every browser plays.')).toBeVisible();
  await expect(page.getByText('Off: no new copies are made.')).toHaveCount(0);
  await box.scrollIntoViewIfNeeded();
  await captureScreen(page, testInfo, 'words-playback-copies');
});

test('the move dialog makes a new folder and moves into it', async ({ page, hearth, member }, testInfo) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Old scans' });
  await signIn(page, member);
  await page.getByRole('button', { name: 'More for Old scans' }).click();
  await page.getByRole('list', { name: 'Actions for Old scans' }).getByRole('button', { name: 'Move', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Move “Old scans”' });
  await picker.getByRole('button', { name: 'New folder' }).click();
  await picker.getByLabel('New folder in My files').fill('Family history');
  await captureScreen(page, testInfo, 'words-move-new-folder');
  await picker.getByRole('button', { name: 'Make folder' }).click();
  await expect(picker.getByRole('navigation', { name: 'Folder path' })).toContainText('Family history');
  await picker.getByRole('button', { name: 'Move to Family history' }).click();
  await expect(picker).toHaveCount(0);
  await files(page)
    .getByRole('link', { name: /Family history/ })
    .click();
  await expect(files(page).getByRole('listitem').filter({ hasText: 'Old scans' })).toHaveCount(1);
});

test('the owner’s Status says when the last good backup was, and an unplugged drive’s snapshots say it is unplugged', async ({
  page,
  hearth,
  owner,
}, testInfo) => {
  const folder = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-e2e-words-')));
  const unplugged = `${folder}-unplugged`;
  const name = uniqueName('USB disk');
  const destination = await hearth.api.ok('POST', '/admin/backup/destinations', owner.access, { kind: 'folder', path: folder, name });
  try {
    expect((await backUp(hearth.api, owner, destination.id)).state).toBe('succeeded');
    await signIn(page, owner);
    await openConsole(page, 'Status');
    const server = page.getByRole('region', { name: 'Server' });
    await expect(server.getByRole('term').filter({ hasText: 'Last good backup' })).toBeVisible();
    await expect(server).toContainText(`Last good backupJust now, to ${name}`);
    await captureScreen(page, testInfo, 'words-status-backup');

    fs.renameSync(folder, unplugged);
    await openConsole(page, 'Backups');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await card.getByText('Snapshots', { exact: true }).click();
    await expect(
      card.getByText('This drive is not plugged in (or its folder is not there). Plug it in to see its snapshots.'),
    ).toBeVisible();
    await expect(card.getByText('No snapshots here yet.')).toHaveCount(0);
    await card.getByText('Snapshots', { exact: true }).scrollIntoViewIfNeeded();
    await captureScreen(page, testInfo, 'words-snapshots-unplugged');
  } finally {
    await hearth.api.ok('DELETE', `/admin/backup/destinations/${destination.id}`, owner.access);
    for (const made of [folder, unplugged]) fs.rmSync(made, { recursive: true, force: true });
  }
});

test('a phone’s backup folder is suggested as the person’s own ("Kid’s phone"), and the person may name it', async ({
  page,
  member,
}, testInfo) => {
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  const settings = page.getByRole('region', { name: /^Back up (this phone|photos from this computer)$/ });
  // Not the browser's name ("Chrome on Pixel 7"): the person's and the kind of device.
  await expect(settings).toContainText(/Photos backed up from this device go into Phone backup\/\S+’s (phone|computer)/);
  await settings.getByRole('button', { name: 'Name this device' }).click();
  await settings.getByLabel('This device’s name').fill('Mum’s phone');
  await captureScreen(page, testInfo, 'words-name-this-device');
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toContainText('Photos backed up from this device go into Phone backup/Mum’s phone');
});
