import * as OTPAuth from 'otpauth';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { captureScreen } from './support/screens.ts';
import { makeLink } from './support/share.ts';

/*
 * Issue 19, finding 12: "Too many tries. Wait a little" left a person guessing how long, and
 * whether the account was gone. Every screen a 429 rate_limited reaches says how long (from
 * Retry-After) and that the right password, or code, will work then.
 *
 * This spec's server allows 2 failures per address: each test fills one bucket (password
 * change, two-step code, a link's password, sign-in), sign-in last, since after it this
 * address signs in nowhere on this server for the window.
 */
test.use({ serverConfig: { rateLimit: { maxFailures: 2 } } });

const WAIT = String.raw`Try again in \d+ (seconds?|minutes?) \(at [^)]+\)`;

test('changing the password: too many wrong current passwords say how long to wait', async ({ page, member }) => {
  await signIn(page, member);
  await mainNav(page).getByRole('link', { name: 'Account' }).click();
  for (let i = 0; i < 3; i++) {
    await page.getByLabel('Current password').fill(`not it ${i}`);
    await page.getByLabel('New password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
  }
  await expect(page.getByRole('alert')).toHaveText(new RegExp(`^Too many tries\\. ${WAIT}: the right password will work then\\.$`));
});

test('the two-step code: too many wrong codes say how long, and that the right code will work then', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  const { secret } = await hearth.api.ok('POST', '/auth/2fa/begin', member.access);
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  await hearth.api.ok('POST', '/auth/2fa/verify', member.access, { code: totp.generate() });

  await page.goto('/');
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  for (const code of ['000000', '111111']) {
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText("doesn't match");
  }
  await page.getByLabel('6-digit code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toHaveText(new RegExp(`^Too many tries\\. ${WAIT}: the right code will work then\\.$`));
  await captureScreen(page, testInfo, 'too-many-codes');
});

test("a link's password: the wait, and that the right password will work then", async ({ page, member, hearth }) => {
  const folder = await hearth.api.ok('POST', '/nodes/folder', member.access, { name: 'Wedding' });
  const link = await makeLink(hearth, member, folder.id, { password: 'confetti and cake' });
  for (const guess of ['one', 'two'])
    expect((await hearth.api.call('POST', `/s/${link.token}/unlock`, undefined, { password: guess })).status).toBe(403);
  await page.goto(new URL(link.url).pathname);
  await page.getByLabel('Password').fill('confetti and cake');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(
    page.getByText(/Too many wrong tries\. You can try again in \d+ (seconds?|minutes?) \(at .+\): the right password will work then\./),
  ).toBeVisible();
});

test('signing in: after too many wrong passwords from this address the page says how long, and that the right password will work then', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  for (const guess of ['wrong one', 'wrong two']) {
    expect((await hearth.api.call('POST', '/auth/login', undefined, { username: member.username, password: guess })).status).toBe(401);
  }
  await page.goto('/');
  await page.getByLabel('Username').fill(member.username);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert');
  await expect(alert).toHaveText(new RegExp(`^Too many tries\\. ${WAIT}: the right password will work then\\.$`));
  await expect(alert).not.toContainText('Wait a little');
  await captureScreen(page, testInfo, 'too-many-tries');
});
