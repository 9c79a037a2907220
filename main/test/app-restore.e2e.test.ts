/**
 * The real compiled desktop app restores a fresh install from its window's first screen: the
 * owner gives the backup folder and picks a snapshot in the web app, the request goes through
 * the app's bridge (the server refuses a restore from the network, this PC included, as it
 * refuses setup), the server starts again in-process on the restored data, and main follows:
 * the tray shows the phone address, the window opens the restored Hearth signed in as its
 * owner, and main still hears the restored server's events (a phone waiting for approval).
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without types
import { chromiumProblem } from '../../scripts/chromium.mjs';
import { startServer } from '../../server/src/index.ts';
import { uploadFile } from '../../server/test/helpers/upload.ts';
import { launch, type RunningApp } from './electron-double/app-driver.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const missing =
  (chromiumProblem as () => string | null)() ??
  (!fs.existsSync(path.join(ROOT, 'dist-electron/main.js')) ? 'dist-electron/ is not built (npm run build:desktop)' : null);
if (missing) {
  console.log(`# desktop restore e2e skipped: ${missing}`);
  if (process.env.CI === 'true') throw new Error(`CI must run the desktop e2e tests: ${missing}`);
}

const LAN_HOST = '127.0.0.2';

function statusAt(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: '/api/v1/status', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

async function api(origin: string, method: string, route: string, body?: unknown, token?: string) {
  const res = await fetch(`${origin}/api/v1${route}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Runs in the window's page: React's inputs take a value through the native setter and an input event. */
const PAGE_HELPERS = `
  const byText = (selector, text) => [...document.querySelectorAll(selector)].find((el) => el.textContent.trim() === text);
  const fill = (labelText, value) => {
    const label = [...document.querySelectorAll('label')].find((l) => l.textContent.trim().startsWith(labelText));
    const input = label.control ?? label.querySelector('input');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  };
`;

describe('restore from a backup in the desktop app (compiled main/ on an Electron double)', { skip: missing ?? false }, () => {
  let work: string;
  let backupFolder: string;
  /** The emergency kit's key: a new Hearth proves the backup with it, and opens its keys.json. */
  let kitKey: string;
  /** The family's one photo, to find again byte for byte after the restore. */
  const wedding = crypto.randomBytes(300_000);
  let app: RunningApp;
  let origin: string;

  const page = <T>(script: string) => app.command<T>('eval', { script: `(async () => { ${PAGE_HELPERS} ${script} })()` });
  /** Waits until the window's page shows `text` (a page mid-navigation answers nothing, and is asked again). */
  const pageShows = async (text: string, timeoutMs = 30_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const body = await page<string>('return location.href + "\\n" + document.body.innerText').catch(
        (error: Error) => `(no answer: ${error.message})`,
      );
      if (body.includes(text)) return body;
      if (Date.now() > deadline) throw new Error(`the window never showed "${text}"; it shows:\n${body}\n${app.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-restore-'));
    backupFolder = path.join(work, 'usb-disk');
    fs.mkdirSync(backupFolder);
    // The family's old Hearth, backed up to a folder (a USB disk), then gone.
    const source = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir: path.join(work, 'old-pc'),
      logLevel: 'silent',
      passwordHashCost: 4096,
      mediaWorkersAtStart: false,
      webDir: null,
    });
    try {
      const at = source.url;
      const owner = (await api(at, 'POST', '/setup', { username: 'owner', password: 'owner-password-1' })).body.access_token as string;
      const invite = await api(at, 'POST', '/admin/invites', { role: 'member' }, owner);
      const registered = await api(at, 'POST', '/auth/register', {
        username: 'grandma',
        password: 'grandma-password-1',
        invite_code: invite.body.code,
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      await uploadFile(`${at}/api/v1`, owner, wedding, { filename: 'wedding.jpg' });
      // Encrypted (the API's default) by this Node's own cipher; the app's server, whose crypto is
      // Electron's (the double's), has no chacha20-poly1305 and decrypts it with its own.
      const destination = await api(at, 'POST', '/admin/backup/destinations', { kind: 'folder', path: backupFolder }, owner);
      assert.equal(destination.status, 201, JSON.stringify(destination.body));
      let run = (await api(at, 'POST', `/admin/backup/destinations/${destination.body.id}/run`, undefined, owner)).body;
      while (run.state === 'running') {
        await new Promise((r) => setTimeout(r, 50));
        run = (await api(at, 'GET', `/admin/backup/runs/${run.id}`, undefined, owner)).body;
      }
      assert.equal(run.state, 'succeeded', JSON.stringify(run));
      kitKey = (await api(at, 'GET', '/admin/backup/kit', undefined, owner)).body.key as string;
    } finally {
      await source.close();
    }
    const userData = path.join(work, 'userData');
    fs.mkdirSync(userData);
    app = launch(ROOT, userData, path.join(work, 'data'), [], { HOST: LAN_HOST });
    origin = await app.origin();
  });

  after(async () => {
    // Quit as the owner would: the server's process ends with the app (a kill would leave it holding the output pipes).
    if (app && app.child.exitCode === null) await app.command('quit').catch(() => app.child.kill('SIGKILL'));
    if (app) await app.exited;
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('the first screen offers the restore; the network (this PC included) cannot start one, the bridge can list the snapshots', async () => {
    await pageShows('Restore from a backup');
    const refused = await api(origin, 'POST', '/setup/restore', { kind: 'folder', path: backupFolder });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'setup_in_app');
    const found = await page<{ ok: boolean; value: { items: unknown[] } }>(
      `return window.hearthDesktop.restoreSnapshots({ path: ${JSON.stringify(backupFolder)}, key: ${JSON.stringify(kitKey)} })`,
    );
    assert.equal(found.ok, true);
    assert.equal(found.value.items.length, 1);
    const wrong = await page<{ ok: boolean; error: { code: string; field: string } }>(
      `return window.hearthDesktop.restoreSnapshots({ path: '/no/such/backup' })`,
    );
    assert.deepEqual(
      [wrong.ok, wrong.error.code, wrong.error.field],
      [false, 'backup_not_found', 'path'],
      "the server's answer, as the API gives it",
    );
  });

  test('the owner restores in the window: the server starts again on it, the tray shows the phone address, the window opens the restored Hearth as its owner', async () => {
    const port = Number(new URL(origin).port);
    assert.equal(await statusAt(LAN_HOST, port), 'ECONNREFUSED', 'a fresh install is on this PC only');
    await page(`byText('button', 'Restore from a backup').click()`);
    await pageShows('Backup folder');
    await page(
      `fill('Backup folder', ${JSON.stringify(backupFolder)}); await new Promise((r) => setTimeout(r, 50)); byText('button', 'Find backups').click()`,
    );
    // The kit is asked for: the backup is encrypted to it (and every backup is signed with its key).
    await pageShows('Emergency kit key');
    await page(
      `fill('Emergency kit key', ${JSON.stringify(kitKey)}); await new Promise((r) => setTimeout(r, 50)); byText('button', 'Find backups').click()`,
    );
    await pageShows('Choose a backup');
    await page(`byText('button', 'Restore this backup').click()`);

    const menu = await app.waitFor(
      'the tray to show the phone address',
      (r) => r.menu.at(-1)?.some((i) => /^(On a phone, open |No network)/.test(i.label ?? '')) && r.menu.at(-1),
      60_000,
    );
    assert.ok(!menu.some((i) => /^Finish setup/.test(i.label ?? '')), 'no longer awaiting setup');
    assert.equal(await statusAt(LAN_HOST, port), 200, 'the restored server is open to the home network, on the same port');
    const status = (await api(origin, 'GET', '/status')).body;
    assert.deepEqual([status.setup_required, status.restoring], [false, false]);

    // The restored Hearth opens signed in as its owner at the PC (the bridge's session), on the family's files.
    await pageShows('wedding.jpg');
    const tokens = await page<{ user: { username: string; role: string }; access_token: string }>(
      'return window.hearthDesktop.localSession()',
    );
    assert.deepEqual([tokens.user.username, tokens.user.role], ['owner', 'admin']);
    const listed = await api(origin, 'GET', '/nodes?parent_id=root', undefined, tokens.access_token);
    const photo = (listed.body.items as { id: string; name: string }[]).find((node) => node.name === 'wedding.jpg')!;
    const download = await fetch(`${origin}/api/v1/nodes/${photo.id}/download`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    assert.ok(
      Buffer.from(await download.arrayBuffer()).equals(wedding),
      'the photo comes back byte for byte, decrypted by the app’s own cipher',
    );
    const shown = (await app.records()).windows[0]!;
    assert.equal(new URL(shown.url!).origin, origin);
    assert.equal(shown.visible, true);
  });

  test('main still hears the restored server: a phone waiting for approval badges the tray and notifies', async () => {
    const tokens = await page<{ access_token: string }>('return window.hearthDesktop.localSession()');
    assert.equal((await api(origin, 'PATCH', '/server/settings', { require_device_approval: true }, tokens.access_token)).status, 200);
    const login = await api(origin, 'POST', '/auth/login', {
      username: 'grandma',
      password: 'grandma-password-1',
      device_name: 'Grandma’s tablet',
      platform: 'android',
    });
    assert.equal(login.status, 202, JSON.stringify(login.body));
    const r = await app.waitFor('the notification', (x) => x.notifications.length > 0 && x);
    assert.deepEqual(r.notifications.at(-1), { title: 'Hearth', body: 'Grandma’s tablet wants to connect to grandma' });
    assert.match(r.trayImages.at(-1)!, /tray-attention/);
  });
});
