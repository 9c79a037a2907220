/**
 * The real compiled desktop app (dist-electron/, `npm run build:desktop`) against a double of
 * Electron (electron-double/): its window is a page in Debian Chromium running the real preload,
 * its server the real server in a forked "utility process" on node:sqlite (Node 24).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: a plain ES module script without types
import { chromiumProblem } from '../../scripts/chromium.mjs';
import { uploadFile } from '../../server/test/helpers/upload.ts';
import { launch, type RunningApp } from './electron-double/app-driver.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const missing =
  (chromiumProblem as () => string | null)() ??
  (!fs.existsSync(path.join(ROOT, 'dist-electron/main.js')) ? 'dist-electron/ is not built (npm run build:desktop)' : null);
if (missing) {
  console.log(`# desktop e2e skipped: ${missing}`);
  if (process.env.CI === 'true') throw new Error(`CI must run the desktop e2e tests: ${missing}`);
}

/** The status code of GET /api/v1/status at host:port, or the connection error's code. */
function statusAt(host: string, port: number): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.get({ host, port, path: '/api/v1/status', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

async function api(origin: string, method: string, route: string, body?: unknown, token?: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${origin}/api/v1${route}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

const LAN_HOST = '127.0.0.2';

describe('the desktop app (compiled main/ on an Electron double)', { skip: missing ?? false }, () => {
  let work: string;
  let userData: string;
  let dataDir: string;
  let app: RunningApp;
  let origin: string;
  let other: http.Server;
  let otherOrigin: string;
  let ownerToken: string;

  /** The server's origin now (a restarted server has a new port: PORT=0), from the tray's phone address. */
  const serverOrigin = async () => {
    const menu = (await app.records()).menu.at(-1)!;
    const phone = menu.find((i) => i.label?.startsWith('On a phone, open '));
    assert.ok(phone, 'this test needs a LAN address to read the port from');
    return `http://127.0.0.1:${new URL(phone.label!.replace('On a phone, open ', '')).port}`;
  };

  before(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-'));
    userData = path.join(work, 'userData');
    dataDir = path.join(work, 'data');
    fs.mkdirSync(userData);
    other = http.createServer((_req, res) => res.end('<p>another site</p>'));
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    otherOrigin = `http://127.0.0.1:${(other.address() as { port: number }).port}`;
    // The address the app opens to the home network once its owner exists: a second loopback
    // address here (0.0.0.0 in real use), so the test stays on this machine.
    app = launch(ROOT, userData, dataDir, [], { HOST: LAN_HOST });
    origin = await app.origin();
  });

  after(async () => {
    if (app && app.child.exitCode === null) {
      app.child.kill('SIGKILL');
      await app.exited;
    }
    other?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  test('it starts the server and, on the first run, opens a hardened window at the server (setup happens there)', async () => {
    const r = await app.waitFor('the window shown', (x) => x.windows[0]?.visible && x);
    assert.equal(r.windows.length, 1);
    assert.equal(r.windows[0]!.visible, true);
    assert.equal(new URL(r.windows[0]!.url!).pathname, '/');
    assert.deepEqual(
      { ...r.windows[0]!.webPreferences, preload: undefined },
      {
        preload: undefined,
        contextIsolation: true,
        sandbox: true,
        nodeIntegration: false,
        nodeIntegrationInSubFrames: false,
        nodeIntegrationInWorker: false,
        webviewTag: false,
        webSecurity: true,
        allowRunningInsecureContent: false,
        experimentalFeatures: false,
        navigateOnDragDrop: false,
        spellcheck: false,
      },
    );
    const status = (await api(origin, 'GET', '/status')).body;
    assert.equal(status.setup_required, true);
    assert.equal(status.setup_in_desktop_app, true, 'the web app shows setup through the bridge');
    assert.ok(fs.existsSync(path.join(dataDir, 'hearth.db')), 'the data is where the app was told');
  });

  test('before its owner exists nobody on the network can reach it, and POST /setup is refused even from this PC', async () => {
    const port = Number(new URL(origin).port);
    assert.equal(await statusAt(LAN_HOST, port), 'ECONNREFUSED', 'not listening on the home network yet');
    const refused = await api(origin, 'POST', '/setup', { username: 'mallory', password: 'mallory-password-1' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'setup_in_app');
    assert.equal((await api(origin, 'GET', '/status')).body.setup_required, true);
  });

  test('the tray has no phone address yet: its item says to finish setup in the window and opens it', async () => {
    const menu = await app.waitFor('the tray menu', (r) => r.menu.at(-1));
    const labels = menu.filter((i) => i.type !== 'separator').map((i) => i.label ?? '');
    assert.deepEqual(labels, ['Open Hearth', 'Finish setup in the Hearth window to connect phones', 'Start at login', 'Quit Hearth']);
    const shows = (await app.records()).windows[0]!.shows;
    await app.command('clickMenu', { prefix: 'Finish setup' });
    assert.ok((await app.records()).windows[0]!.shows > shows);
  });

  test('the preload exposes a frozen hearthDesktop with named functions only; setup goes through it, and the window signs in as the owner without a password', async () => {
    const shape = await app.command<{ keys: string[]; frozen: boolean; require: string; ipc: string }>('eval', {
      script: `({ keys: Object.keys(window.hearthDesktop).sort(), frozen: Object.isFrozen(window.hearthDesktop), require: typeof window.require, ipc: typeof window.ipcRenderer })`,
    });
    assert.deepEqual(shape, {
      keys: ['copyText', 'isDesktop', 'localSession', 'restore', 'restoreSnapshots', 'setup'],
      frozen: true,
      require: 'undefined',
      ipc: 'undefined',
    });
    assert.equal(await app.command('eval', { script: 'window.hearthDesktop.localSession()' }), null, 'before setup: no owner yet');

    const weak = await app.command<{ ok: boolean; error: { code: string; field?: string } }>('eval', {
      script: `window.hearthDesktop.setup({ username: 'owner', password: 'short' })`,
    });
    assert.equal(weak.ok, false);
    assert.deepEqual([weak.error.code, weak.error.field], ['weak_password', 'password'], "the server's answer, as the API gives it");
    const setup = await app.command<{ ok: boolean; tokens: { access_token: string; user: { username: string } } }>('eval', {
      script: `window.hearthDesktop.setup({ username: 'owner', password: 'owner-password-1', server_name: 'Home' })`,
    });
    assert.equal(setup.ok, true);
    assert.equal(setup.tokens.user.username, 'owner');
    ownerToken = setup.tokens.access_token;
    assert.equal(await statusAt(LAN_HOST, Number(new URL(origin).port)), 200, 'the home network reaches it now, without a restart');
    const menu = await app.waitFor('the tray to show the phone address', (r) => {
      const last = r.menu.at(-1);
      return last?.some((i) => /^(On a phone, open |No network)/.test(i.label ?? '')) && last;
    });
    const labels = menu.filter((i) => i.type !== 'separator').map((i) => i.label ?? '');
    assert.equal(labels[0], 'Open Hearth');
    assert.match(labels[1]!, /^(On a phone, open http:\/\/.+:\d+\/|No network: .*)$/);
    assert.deepEqual(labels.slice(2), ['Owner locked out? Make a recovery code…', 'Start at login', 'Quit Hearth']);
    if (labels[1]!.startsWith('On a phone')) {
      await app.command('clickMenu', { prefix: 'On a phone' });
      assert.equal((await app.records()).clipboard.at(-1), labels[1]!.replace('On a phone, open ', ''));
    }

    await api(origin, 'PATCH', '/server/settings', { require_device_approval: true }, ownerToken);
    const tokens = await app.command<{ access_token: string; user: { username: string; role: string } }>('eval', {
      script: 'window.hearthDesktop.localSession()',
    });
    assert.equal(tokens.user.username, 'owner');
    assert.equal(tokens.user.role, 'admin');
    const me = await api(origin, 'GET', '/me', undefined, tokens.access_token);
    assert.equal(me.status, 200, 'a working session although device approval is on');
  });

  test('navigation away from the server is refused and goes to the OS browser; window.open and target=_blank too, and no second window opens', async () => {
    await app.command('eval', { script: `location.href = ${JSON.stringify(`${otherOrigin}/away`)}` });
    await app.waitFor('the OS browser to get the link', (r) => r.openExternal.includes(`${otherOrigin}/away`));
    assert.equal(new URL((await app.records()).windows[0]!.url!).origin, origin, 'the window stays on the server');

    await app.command('eval', { script: `window.open(${JSON.stringify(`${otherOrigin}/popup`)})` });
    await app.command('eval', {
      script: `(() => { const a = document.createElement('a'); a.href = ${JSON.stringify(`${otherOrigin}/blank`)}; a.target = '_blank'; a.textContent = 'x'; document.body.append(a); a.click(); })()`,
    });
    const r = await app.waitFor('both links in the OS browser', (x) => x.openExternal.includes(`${otherOrigin}/blank`) && x);
    assert.ok(r.openExternal.includes(`${otherOrigin}/popup`));
    assert.equal(r.windows.filter((w) => !w.destroyed).length, 1, 'no window opened inside the app');

    await app.command('eval', { script: `location.href = ${JSON.stringify(`${origin}/api/v1/status`)}` });
    await app.waitFor('navigation within the server', (x) => x.windows[0]!.url === `${origin}/api/v1/status`);
  });

  test('every permission request is refused', async () => {
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-read', 'openExternal']) {
      assert.deepEqual(await app.command('permission', { permission }), { requested: false, checked: false }, permission);
    }
  });

  test("once the family's first file is stored the tray offers, calmly, to set up a backup (no badge); the item opens the console's Backups page", async () => {
    // The owner at the PC, as the window signs in (device approval is on: a password sign-in would wait).
    const owner = await app.command<{ access_token: string }>('eval', { script: 'window.hearthDesktop.localSession()' });
    await uploadFile(`${origin}/api/v1`, owner.access_token, Buffer.from('first photo of the family'), { filename: 'first.jpg' });
    await app.waitFor('the tray to offer a backup', (r) => r.menu.at(-1)?.some((i) => i.label === 'Set up a backup…'));
    const r = await app.records();
    assert.doesNotMatch(r.trayImages.at(-1) ?? 'tray.png', /tray-attention/, 'a nudge, not a warning');
    assert.equal(r.tooltips.at(-1), 'Hearth is running');
    await app.command('clickMenu', { prefix: 'Set up a backup' });
    await app.waitFor('the Backups page', (x) => x.windows[0]!.url === `${origin}/console/backups`);
  });

  test('a phone waiting for approval badges the tray and notifies "<device> wants to connect to <account>"; the click opens the devices page', async () => {
    const login = await api(origin, 'POST', '/auth/login', {
      username: 'owner',
      password: 'owner-password-1',
      device_name: 'Pixel 8',
      platform: 'android',
    });
    assert.equal(login.status, 202);
    const r = await app.waitFor('the notification', (x) => x.notifications.length > 0 && x);
    assert.deepEqual(r.notifications.at(-1), { title: 'Hearth', body: 'Pixel 8 wants to connect to owner' });
    assert.match(r.trayImages.at(-1)!, /tray-attention/);
    assert.match(r.tooltips.at(-1)!, /a device is waiting/);
    await app.command('clickNotification', { index: r.notifications.length - 1 });
    await app.waitFor('the devices page', (x) => x.windows[0]!.url === `${origin}/console/devices`);
  });

  test('closing the window hides it to the tray and the server keeps serving; Open brings it back', async () => {
    assert.equal(await app.command('closeWindow'), 'kept');
    let r = await app.records();
    assert.equal(r.windows[0]!.visible, false);
    assert.equal(r.windows[0]!.destroyed, false);
    assert.equal((await api(origin, 'GET', '/status')).status, 200);
    await app.command('clickMenu', { prefix: 'Open Hearth' });
    r = await app.records();
    assert.equal(r.windows[0]!.visible, true);
  });

  test('a second launch shows the running window and leaves', async () => {
    const shows = (await app.records()).windows[0]!.shows;
    const second = launch(ROOT, userData, dataDir);
    assert.equal(await second.exited, 0, second.output);
    await app.waitFor('the window to come forward', (r) => r.windows[0]!.shows > shows);
    assert.equal((await app.records()).utilityPids.length, 1, 'no second server');
  });

  test('a server crash leaves the tray up, says so, and the server comes back', async () => {
    const [pid] = (await app.records()).utilityPids;
    process.kill(pid!, 'SIGKILL');
    await app.waitFor('the tray to say the server stopped', (r) => r.tooltips.at(-1)?.includes('server stopped'));
    await app.waitFor('a new server', (r) => r.utilityPids.length === 2 && r.tooltips.at(-1) === 'Hearth is running');
    origin = await serverOrigin();
    assert.equal((await api(origin, 'GET', '/status')).status, 200);
  });

  test('the tray makes an owner recovery code at the PC: shown in a box, "Copy code" copies it, and it signs the owner in elsewhere without approval', async () => {
    await app.command('answerDialog', { response: 0 });
    const before = (await app.records()).dialogs.length;
    await app.command('clickMenu', { prefix: 'Owner locked out?' });
    const box = await app.waitFor('the recovery code box', (r) => r.dialogs.length > before && r.dialogs.at(-1));
    assert.equal(box.title, 'Owner recovery code');
    assert.match(box.message, /^[0-9A-Z]{5}(-[0-9A-Z]{1,5}){5}$/);
    assert.match(box.detail, /Owner locked out\?/);
    assert.deepEqual(box.buttons, ['Copy code', 'Close']);
    await app.waitFor('the code on the clipboard', (r) => r.clipboard.at(-1) === box.message);
    // Device approval is on (set above): a password alone would wait.
    const recovered = await api(origin, 'POST', '/auth/recover', { code: box.message, new_password: 'a new owner passphrase' });
    assert.equal(recovered.status, 200, JSON.stringify(recovered.body));
    assert.equal(recovered.body.user.username, 'owner');
    ownerToken = recovered.body.access_token;
  });

  test('quit closes the server cleanly: an upload in flight resumes after the next start, and what was acknowledged is there', async () => {
    const folder = await api(origin, 'POST', '/nodes/folder', { name: 'Before quit' }, ownerToken);
    assert.equal(folder.status, 201);
    const created = await fetch(`${origin}/api/v1/uploads`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ownerToken}`,
        'tus-resumable': '1.0.0',
        'upload-length': String(256 * 1024),
        'upload-metadata': `filename ${Buffer.from('big.bin').toString('base64')}`,
      },
    });
    assert.equal(created.status, 201);
    const uploadPath = new URL(created.headers.get('location')!, origin).pathname;
    const patched = await fetch(`${origin}${uploadPath}`, {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${ownerToken}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: Buffer.alloc(64 * 1024, 7),
    });
    assert.equal(patched.status, 204);

    await app.command('clickMenu', { label: 'Quit Hearth' });
    assert.equal(await app.exited, 0, app.output);

    const again = launch(ROOT, userData, dataDir);
    try {
      const origin2 = await again.origin();
      const head = await fetch(`${origin2}${uploadPath}`, {
        method: 'HEAD',
        headers: { authorization: `Bearer ${ownerToken}`, 'tus-resumable': '1.0.0' },
      });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('upload-offset'), String(64 * 1024), 'the upload goes on from where it stopped');
      const top = await api(origin2, 'GET', '/nodes', undefined, ownerToken);
      assert.ok(
        top.body.items.some((n: { name: string }) => n.name === 'Before quit'),
        'the acknowledged folder is there',
      );
      await again.command('quit');
      assert.equal(await again.exited, 0, again.output);
    } finally {
      if (again.child.exitCode === null) again.child.kill('SIGKILL');
    }
  });
});

describe('the desktop app on a data folder the server refuses', { skip: missing ?? false }, () => {
  test("the database missing beside the family's files: an error box says why and how to restore, the app quits, and nothing is touched", async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-desktop-refused-'));
    try {
      const userData = path.join(work, 'userData');
      const dataDir = path.join(work, 'data');
      const photo = path.join(dataDir, 'files', 'blobs', 'zz', '01JAPHOTOOFGRANDMA000000zz');
      fs.mkdirSync(userData);
      fs.mkdirSync(path.dirname(photo), { recursive: true });
      fs.writeFileSync(photo, 'a photo');
      const app = launch(ROOT, userData, dataDir);
      assert.equal(await app.exited, 1, app.output);
      assert.match(
        app.output,
        /\[error box\] Hearth could not start\nHearth did not start: its database \S+hearth\.db is missing, but the family's files are stored in this data folder\./,
      );
      assert.match(app.output, /Put hearth\.db back from your backup \(README, "Where the data lives, and backups"\)/);
      assert.equal(fs.readFileSync(photo, 'utf8'), 'a photo');
      assert.ok(!fs.existsSync(path.join(dataDir, 'hearth.db')), 'no database was made');
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});
