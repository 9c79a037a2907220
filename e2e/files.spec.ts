import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';

const list = (page: Page) => page.getByRole('list', { name: 'Files and folders' });
const row = (page: Page, name: string) => list(page).getByRole('listitem').filter({ hasText: name });

async function more(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `More for ${name}` }).click();
  await page
    .getByRole('list', { name: `Actions for ${name}` })
    .getByRole('button', { name: action, exact: true })
    .click();
}

async function newFolder(page: Page, name: string) {
  await page.getByRole('button', { name: 'New folder' }).click();
  await page.getByLabel('Folder name').fill(name);
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(row(page, name)).toBeVisible();
}

test('create, rename, move, trash, restore and delete for good, each confirmed where it cannot be undone', async ({
  page,
  member,
  hearth,
}) => {
  await signIn(page, member);
  await newFolder(page, 'Documents');
  await newFolder(page, 'Holidays');

  await more(page, 'Holidays', 'Rename');
  await page.getByLabel('New name').fill('Summer 2024');
  await page.getByRole('button', { name: 'Rename' }).click();
  await expect(row(page, 'Summer 2024')).toBeVisible();
  await expect(row(page, 'Holidays')).toHaveCount(0);

  await more(page, 'Summer 2024', 'Move');
  const picker = page.getByRole('dialog', { name: /Move/ });
  await picker.getByRole('button', { name: 'Documents' }).click();
  await picker.getByRole('button', { name: 'Move to Documents' }).click();
  await expect(row(page, 'Summer 2024')).toHaveCount(0);
  await list(page)
    .getByRole('link', { name: /Documents/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Documents' })).toBeVisible();
  await expect(row(page, 'Summer 2024')).toBeVisible();

  await more(page, 'Summer 2024', 'Move to trash');
  await page.getByRole('dialog', { name: 'Move “Summer 2024” to the trash?' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('This folder is empty.')).toBeVisible();

  await page.goto('/trash');
  await expect(row(page, 'Summer 2024')).toBeVisible();
  await more(page, 'Summer 2024', 'Restore');
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  const restored = await hearth.api.ok('GET', '/nodes?parent_id=root', member.access);
  const documents = restored.items.find((n: { name: string }) => n.name === 'Documents');
  const inside = await hearth.api.ok('GET', `/nodes?parent_id=${documents.id}`, member.access);
  expect(inside.items.map((n: { name: string }) => n.name)).toEqual(['Summer 2024']);

  await page.goto(`/files/${documents.id}`);
  await more(page, 'Summer 2024', 'Move to trash');
  await page.getByRole('button', { name: 'Move to trash' }).click();
  await page.goto('/trash');
  await more(page, 'Summer 2024', 'Delete for good');
  const confirm = page.getByRole('dialog', { name: 'Delete “Summer 2024” for good?' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete for good' }).click();
  await expect(page.getByText('The trash is empty.')).toBeVisible();

  // Each row in the trash has its own Restore, one tap away.
  const letters = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Old letters' });
  await hearth.api.ok('DELETE', `/nodes/${letters.id}`, member.access);
  await page.reload();
  await expect(row(page, 'Old letters')).toContainText('Deleted today');
  await page.getByRole('button', { name: 'Restore Old letters' }).click();
  await expect(page.getByText('The trash is empty.')).toBeVisible();
  expect((await hearth.api.ok('GET', `/nodes/${letters.id}`, member.access)).trashed_at).toBeNull();
  const trash = await hearth.api.ok('GET', '/trash', member.access);
  expect(trash.items).toEqual([]);
});

test('several items selected at once are starred, moved and trashed together, and the count is stated first', async ({
  page,
  member,
  hearth,
}) => {
  for (const name of ['Alpha', 'Bravo', 'Charlie', 'Target']) await hearth.api.ok('POST', '/nodes/folder', member.access, { name });
  await signIn(page, member);
  for (const name of ['Alpha', 'Bravo', 'Charlie']) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('toolbar', { name: 'Selection' });
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Favourite' }).click();
  await mainNav(page)
    .getByRole('link', { name: 'Favourites' })
    .or(page.getByRole('link', { name: 'Favourites' }))
    .first()
    .click();
  await expect(list(page).getByRole('listitem')).toHaveCount(3);
  await page.goto('/files');

  for (const name of ['Alpha', 'Bravo']) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  await bar.getByRole('button', { name: 'Move', exact: true }).click();
  const picker = page.getByRole('dialog', { name: 'Move 2 items' });
  await picker.getByRole('button', { name: 'Target' }).click();
  await picker.getByRole('button', { name: 'Move to Target' }).click();
  await expect(row(page, 'Alpha')).toHaveCount(0);
  await expect(row(page, 'Bravo')).toHaveCount(0);

  await page.getByRole('checkbox', { name: 'Select Charlie' }).check();
  await page.getByRole('checkbox', { name: 'Select Target' }).check();
  await bar.getByRole('button', { name: 'Trash' }).click();
  await page.getByRole('dialog', { name: 'Move 2 items to the trash?' }).getByRole('button', { name: 'Move to trash' }).click();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  const trash = await hearth.api.ok('GET', '/trash', member.access);
  expect(trash.items.map((n: { name: string }) => n.name).sort()).toEqual(['Charlie', 'Target']);
});

test('details, colour, grid and search', async ({ page, member, hearth }) => {
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Recipes' });
  await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Receipts 2023' });
  await signIn(page, member);
  await more(page, 'Recipes', 'Colour');
  await page.getByRole('button', { name: 'Green' }).click();
  await expect(row(page, 'Recipes').locator('.color-green')).toBeVisible();
  await more(page, 'Recipes', 'Details');
  const details = page.getByRole('dialog', { name: 'Recipes' });
  await expect(details).toContainText('Owner');
  await expect(details).toContainText('Nobody');
  await details.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Grid' }).click();
  await expect(page.locator('.node-grid')).toBeVisible();
  await page.getByRole('button', { name: 'List' }).click();
  await page.getByLabel('Search by name').fill('rece');
  await page.getByLabel('Search by name').press('Enter');
  await expect(page.getByRole('heading', { name: 'Search' })).toBeVisible();
  await expect(list(page).getByRole('listitem')).toHaveCount(1);
  await expect(row(page, 'Receipts 2023')).toBeVisible();
});
