import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, mainNav, signIn, test } from './support/fixtures.ts';
import { uploadAs, type Hearth } from './support/hearth.ts';
import { mediaFixture, photo, processed, upload } from './support/media.ts';
import { makeLink } from './support/share.ts';

/** The session tokens this page was given (sign-in, refresh): none of them may appear in a URL but the WebSocket's. */
function watchSessionTokens(page: Page): Set<string> {
  const tokens = new Set<string>();
  page.on('response', async (response) => {
    if (!/\/api\/v1\/(auth\/login|auth\/refresh|setup)$/.test(new URL(response.url()).pathname)) return;
    const body = (await response.json().catch(() => null)) as { access_token?: string } | null;
    if (body?.access_token) tokens.add(body.access_token);
  });
  return tokens;
}

/** Every URL the page asked for over HTTP (the WebSocket's is not among them). */
function watchRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  return urls;
}

function tokenIn(url: string): string | null {
  return new URL(url).searchParams.get('access_token');
}

/** What a request with this token as a bearer header gets: a URL token opens nothing of the API. */
async function asBearer(hearth: Hearth, token: string, route: string): Promise<number> {
  return (await fetch(`${hearth.api.base}${route}`, { headers: { authorization: `Bearer ${token}` } })).status;
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Photo viewer' });

test.describe('uploaded content never runs on the app origin', () => {
  test('a <script src> pointed at an uploaded .js does not run, by its private download URL or through a public link', async ({
    page,
    member,
    hearth,
  }) => {
    const script = Buffer.from('window.__hearthRan = (window.__hearthRan || 0) + 1;\n');
    const id = await uploadAs(hearth.api, member, 'tracker.js', script, { filetype: 'text/javascript' });
    const link = await makeLink(hearth, member, id);
    const minted = await hearth.api.ok('POST', `/nodes/${id}/access-token`, member.access);
    const token = encodeURIComponent(minted.access_token);
    const urls = [
      `/api/v1/nodes/${id}/download?access_token=${token}`,
      `/api/v1/nodes/${id}/download?inline=1&access_token=${token}`,
      `/api/v1/s/${link.token}/download`,
      `/api/v1/s/${link.token}/download?inline=1`,
    ];
    // A page of the app's own origin, under its own CSP (script-src 'self'): where an injected tag would sit.
    await page.goto('/');
    for (const url of urls) {
      // The URL itself works: what stops the script is its type, not a refused request.
      const fetched = await page.request.get(url);
      expect(fetched.status(), url).toBe(200);
      expect(Buffer.from(await fetched.body()).equals(script), url).toBe(true);
      const outcome = await page.evaluate(
        (src) =>
          new Promise<string>((resolve) => {
            const tag = document.createElement('script');
            tag.src = src;
            tag.onload = () => resolve('ran');
            tag.onerror = () => resolve('refused');
            document.head.append(tag);
          }),
        url,
      );
      expect(outcome, url).toBe('refused');
    }
    expect(await page.evaluate(() => (window as { __hearthRan?: number }).__hearthRan ?? 0)).toBe(0);
  });

  test('an uploaded .html page is saved as a file, never rendered, by its private URL or a public link, inline or not', async ({
    page,
    member,
    hearth,
  }) => {
    const html = Buffer.from('<!doctype html><title>Rendered</title><h1>Rendered page</h1><script>document.title = "ran"</script>');
    const id = await uploadAs(hearth.api, member, 'invite.html', html, { filetype: 'text/html' });
    const link = await makeLink(hearth, member, id);
    const token = encodeURIComponent((await hearth.api.ok('POST', `/nodes/${id}/access-token`, member.access)).access_token);
    for (const url of [
      `/api/v1/nodes/${id}/download?inline=1&access_token=${token}`,
      `/api/v1/s/${link.token}/download`,
      `/api/v1/s/${link.token}/download?inline=1`,
    ]) {
      await page.goto('/');
      const downloading = page.waitForEvent('download');
      // Navigating to an attachment starts a download and renders nothing.
      await page.goto(url).catch(() => undefined);
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('invite.html');
      expect(await fs.readFile((await download.path())!)).toEqual(html);
      await expect(page.getByRole('heading', { name: 'Rendered page' })).toHaveCount(0);
      expect(await page.title()).not.toBe('ran');
    }
  });
});

test.describe('links the browser keeps hold a token for one file, never the session @lan', () => {
  test('a download from My files: its URL carries a token for that file alone, which opens nothing else; the file arrives whole', async ({
    page,
    member,
    hearth,
  }) => {
    const bytes = crypto.randomBytes(300_000);
    const id = await uploadAs(hearth.api, member, 'Taxes 2024.bin', bytes);
    const other = await uploadAs(hearth.api, member, 'Other.bin', Buffer.from('other'));
    const sessionTokens = watchSessionTokens(page);
    const requests = watchRequests(page);
    await signIn(page, member);
    await page.getByRole('button', { name: 'More for Taxes 2024.bin' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('list', { name: 'Actions for Taxes 2024.bin' }).getByRole('button', { name: 'Download', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('Taxes 2024.bin');
    expect((await fs.readFile((await download.path())!)).equals(bytes)).toBe(true);

    const token = tokenIn(download.url());
    expect(token).toBeTruthy();
    expect(sessionTokens.size).toBeGreaterThan(0);
    for (const url of requests) for (const session of sessionTokens) expect(url).not.toContain(encodeURIComponent(session));
    expect(sessionTokens.has(token!)).toBe(false);
    // What the downloads list keeps opens this file, and nothing of the account.
    expect(await asBearer(hearth, token!, '/me')).toBe(401);
    expect(await asBearer(hearth, token!, `/nodes/${id}`)).toBe(401);
    expect((await fetch(`${hearth.api.base}/nodes/${other}/download?access_token=${encodeURIComponent(token!)}`)).status).toBe(401);
  });

  test('the gallery: a video plays and seeks, a photo zoomed loads its original, the viewer downloads; no URL carries the session token', async ({
    page,
    member,
    hearth,
  }) => {
    test.setTimeout(90_000);
    const picture = await upload(hearth.api, member, await photo('2024:06:01 10:00:00', 2400, 1800), 'Big.jpg');
    const clip = await upload(hearth.api, member, await mediaFixture('clip.mp4'), 'clip.mp4');
    await processed(hearth.api, member, [picture, clip]);
    const sessionTokens = watchSessionTokens(page);
    const requests = watchRequests(page);
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();

    await page.getByRole('button', { name: /^Video clip\.mp4/ }).click();
    const video = viewer(page).locator('video[aria-label="clip.mp4"]');
    await expect(video).toBeVisible();
    const seeked = await video.evaluate(
      (element: HTMLVideoElement) =>
        new Promise<number>((resolve, reject) => {
          const seek = () => {
            element.addEventListener('seeked', () => resolve(element.currentTime / element.duration), { once: true });
            element.currentTime = element.duration * 0.6;
          };
          element.addEventListener('error', () => reject(new Error(`video error ${element.error?.code}`)), { once: true });
          if (element.readyState >= 1) seek();
          else element.addEventListener('loadedmetadata', seek, { once: true });
        }),
    );
    expect(seeked).toBeCloseTo(0.6, 1);
    const downloading = page.waitForEvent('download');
    await viewer(page).getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('clip.mp4');
    expect(sessionTokens.has(tokenIn(download.url()) ?? '')).toBe(false);
    expect(await asBearer(hearth, tokenIn(download.url())!, '/me')).toBe(401);

    await page.keyboard.press('ArrowLeft');
    await expect(viewer(page).locator('.viewer-name')).toHaveText('Big.jpg');
    await viewer(page).locator('.yarl__slide_current img.yarl__slide_image').first().dblclick();
    await expect.poll(() => requests.filter((url) => url.includes(`/nodes/${picture}/download?`)).length).toBeGreaterThan(0);

    // The video's ranges and the photo's original.
    const fileUrls = requests.filter((url) => url.includes('/download?'));
    expect(fileUrls.some((url) => url.includes(`/nodes/${clip}/download?`))).toBe(true);
    for (const url of fileUrls) {
      expect(tokenIn(url)).toBeTruthy();
      expect(sessionTokens.has(tokenIn(url)!)).toBe(false);
    }
    for (const url of requests) for (const session of sessionTokens) expect(url).not.toContain(encodeURIComponent(session));
  });
});

test.describe('thumbnails kept by the browser', () => {
  test('are revalidated through fetch (a 304 from the server), and signing out clears them from the browser cache', async ({
    page,
    member,
    hearth,
  }) => {
    const id = await upload(hearth.api, member, await photo('2024:03:03 09:00:00'), 'Kept.jpg');
    await processed(hearth.api, member, [id]);
    const route = `/api/v1/nodes/${id}/thumbnail?v=1`;
    // What the server answered, before the browser's cache turned a 304 into the kept 200 for fetch.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const thumbnailRequests = new Set<string>();
    const statuses: number[] = [];
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.request.url.endsWith(route)) thumbnailRequests.add(event.requestId);
    });
    cdp.on('Network.responseReceivedExtraInfo', (event) => {
      if (thumbnailRequests.has(event.requestId)) statuses.push(event.statusCode);
    });
    await signIn(page, member);
    await mainNav(page).getByRole('link', { name: 'Photos' }).click();
    await expect(page.locator('.tile img').first()).toBeVisible();
    const cached = (page: Page) =>
      page.evaluate(async (url) => {
        const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
        return response?.status ?? 0;
      }, route);
    expect(await cached(page)).toBe(200);

    // A reload shows it again from the browser's copy, after the server said it is still this one.
    await page.reload();
    await expect(page.locator('.tile img').first()).toBeVisible();
    await expect.poll(() => statuses).toContain(304);

    await mainNav(page).locator('visible=true').getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { name: /Sign in to/ })).toBeVisible();
    // Clear-Site-Data on the sign-out's answer (honoured here: 127.0.0.1 is a secure context).
    await expect.poll(() => cached(page)).not.toBe(200);
  });
});
