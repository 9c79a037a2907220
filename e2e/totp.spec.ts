import * as OTPAuth from 'otpauth';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';

/** A code the server has not seen yet: the next 30-second step (the server accepts one step either side, each code once). */
function nextCode(secret: string, step = 1): string {
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
  return totp.generate({ timestamp: Date.now() + step * 30_000 });
}

test.describe('two-step sign-in @lan', () => {
  test('turning it on shows a QR code and ten recovery codes once; then sign-in asks for a code, and a recovery code works instead', async ({
    page,
    member,
  }) => {
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    const secret = (await page.locator('.secret').textContent())!.trim();
    await page.getByLabel('Code from the app').fill(nextCode(secret, 0));
    await page.getByRole('button', { name: 'Turn on' }).click();

    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.allTextContents()).map((c) => c.trim());
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download' }).click();
    expect((await download).suggestedFilename()).toBe('hearth-recovery-codes.txt');
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Copied|blocked/ })).toBeVisible();
    await page.getByRole('button', { name: 'I saved them' }).click();
    await expect(page.getByRole('button', { name: 'Turn off two-step sign-in' })).toBeVisible();

    // A new sign-in now needs the code.
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
    // The code's field takes the focus as the step appears: the phone's keyboard is ready for it.
    await expect(page.getByLabel('6-digit code')).toBeFocused();
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('alert')).toContainText("doesn't match");
    await page.getByLabel('6-digit code').fill(nextCode(secret, 1));
    await page.getByRole('button', { name: 'Continue' }).click();
    // Signed out, then in again at the app's own address: Photos on a phone, My files on a computer.
    await expect(page.getByRole('heading', { name: /^(My files|Photos)$/ })).toBeVisible();

    // Lost phone: a recovery code instead.
    await mainNav(page).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByLabel('Username').fill(member.username);
    await page.getByLabel('Password').fill(member.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await page.getByLabel('Recovery code').fill(recovery[0]!);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('heading', { name: /^(My files|Photos)$/ })).toBeVisible();
  });
});
