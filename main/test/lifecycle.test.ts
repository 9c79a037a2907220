/**
 * The desktop's decisions with plain fakes for the server, window, tray, notifications and the
 * OS: no Electron involved (plain Node must never load it).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { LinuxAutostart } from '../autostart.ts';
import { BACKUPS_PATH, Desktop, DEVICES_PATH } from '../lifecycle.ts';
import { dataDirFor } from '../paths.ts';
import type {
  AppPort,
  BackupHealth,
  OwnerSetup,
  PendingDevice,
  RecoveryCode,
  RecoveryRefusal,
  RestoreRequest,
  ServerHost,
  ServerStarted,
  SetupResult,
  TrayState,
} from '../ports.ts';
import { trayMenuTemplate, trayTooltip } from '../tray-menu.ts';

const NOW = 1_750_000_000_000;

class FakeServer implements ServerHost {
  calls: string[] = [];
  setupRequired = false;
  pending?: (d: PendingDevice) => void;
  settled?: (id: string) => void;
  crash?: (reason: string) => void;
  stopGate: Promise<void> = Promise.resolve();
  async start() {
    this.calls.push('start');
    return { url: 'http://127.0.0.1:8420', port: 8420, setupRequired: this.setupRequired };
  }
  async localOwnerSession() {
    return null;
  }
  setups: OwnerSetup[] = [];
  setupAnswer: SetupResult = {
    ok: true,
    tokens: { access_token: 'a', refresh_token: 'r', expires_at: 0, session_id: 's', user: {} as never },
  };
  async setupOwner(input: OwnerSetup) {
    this.setups.push(input);
    if (this.setupAnswer.ok) this.setupRequired = false;
    return this.setupAnswer;
  }
  recoveryCode: RecoveryCode | RecoveryRefusal | null = { code: 'ABCDE-FGHJK-MNPQR-STVWX-YZ012-3', expires_at: NOW + 15 * 60_000 };
  async ownerRecoveryCode() {
    this.calls.push('recovery-code');
    return this.recoveryCode;
  }
  async stop() {
    this.calls.push('stop:begin');
    await this.stopGate;
    this.calls.push('stop:done');
  }
  onPending(l: (d: PendingDevice) => void) {
    this.pending = l;
  }
  onSettled(l: (id: string) => void) {
    this.settled = l;
  }
  onCrash(l: (reason: string) => void) {
    this.crash = l;
  }
  backupHealth?: (h: BackupHealth) => void;
  onBackupHealth(l: (h: BackupHealth) => void) {
    this.backupHealth = l;
  }
  restores: [string, RestoreRequest][] = [];
  async restoreSnapshots(input: RestoreRequest) {
    this.restores.push(['snapshots', input]);
    return { ok: true as const, value: { encrypted: false, items: [{ id: 'snap-1', at: NOW, files: 3, bytes: 300, signed: true }] } };
  }
  async startRestore(input: RestoreRequest) {
    this.restores.push(['restore', input]);
    return {
      ok: true as const,
      value: {
        id: 'run-1',
        destination_id: null,
        kind: 'restore' as const,
        state: 'running' as const,
        started_at: NOW,
        finished_at: null,
        files: 0,
        bytes: 0,
        bytes_copied: 0,
        files_total: null,
        bytes_total: null,
        bytes_to_copy: null,
        seconds_left: null,
        problems: [],
        snapshot_id: 'snap-1',
      },
    };
  }
  restarted?: (started: ServerStarted) => void;
  onRestarted(l: (started: ServerStarted) => void) {
    this.restarted = l;
  }
}

function world(options: { startedAtLogin?: boolean; lock?: boolean; lan?: string[] } = {}) {
  const server = new FakeServer();
  const shown: (string | undefined)[] = [];
  const trays: TrayState[] = [];
  const notes: { title: string; body: string; click: () => void }[] = [];
  const dialogs: { title: string; message: string; detail: string; buttons: string[] }[] = [];
  const answers: number[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const state = { login: false, clipboard: [] as string[] };
  const app: AppPort & { readonly login: boolean; clipboard: string[] } = {
    get login() {
      return state.login;
    },
    clipboard: state.clipboard,
    claimSingleInstance: () => options.lock ?? true,
    openAtLogin: () => state.login,
    setOpenAtLogin: (on) => {
      state.login = on;
    },
    copyToClipboard: (text) => {
      state.clipboard.push(text);
    },
    exit: () => {
      server.calls.push('exit');
    },
  };
  const desktop = new Desktop(
    server,
    { show: (p) => shown.push(p), isOpen: () => shown.length > 0 },
    { render: (s) => trays.push(s) },
    { notify: (title, body, click) => notes.push({ title, body, click }) },
    {
      show: async (box) => {
        dialogs.push(box);
        return answers.shift() ?? box.buttons.length - 1;
      },
    },
    app,
    {
      startedAtLogin: options.startedAtLogin ?? false,
      lanUrls: (port) => (options.lan ?? ['192.168.1.20']).map((a) => `http://${a}:${port}/`),
      setTimer: (run, ms) => timers.push({ run, ms }),
      now: () => NOW,
    },
  );
  return { server, shown, trays, notes, dialogs, answers, timers, app, desktop };
}

describe('first run and start', () => {
  test('the first run opens the window (setup happens there), even when the OS started the app at login', async () => {
    const w = world({ startedAtLogin: true });
    w.server.setupRequired = true;
    assert.equal(await w.desktop.start(), true);
    assert.deepEqual(w.shown, [undefined]);
    assert.equal(w.desktop.serverUrl(), 'http://127.0.0.1:8420');
  });

  test('a start at login after setup stays in the tray; a start by hand opens the window', async () => {
    const atLogin = world({ startedAtLogin: true });
    await atLogin.desktop.start();
    assert.deepEqual(atLogin.shown, []);
    assert.equal(atLogin.trays.length, 1, 'the tray is there');
    const byHand = world();
    await byHand.desktop.start();
    assert.deepEqual(byHand.shown, [undefined]);
  });
});

describe('single instance', () => {
  test('a second launch that cannot take the lock quits at once and never starts a second server', async () => {
    const w = world({ lock: false });
    assert.equal(await w.desktop.start(), false);
    assert.deepEqual(w.server.calls, ['exit']);
  });

  test('the running instance shows its window when launched again', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.desktop.secondInstance();
    assert.deepEqual(w.shown, [undefined]);
  });
});

describe('tray menu', () => {
  const noop = { open() {}, copyPhoneUrl() {}, makeRecoveryCode() {}, toggleOpenAtLogin() {}, quit() {}, openBackups() {} };

  test('the menu offers open, the address to type on a phone (click copies it), a recovery code, start at login and quit', async () => {
    const w = world();
    await w.desktop.start();
    const clicked: string[] = [];
    const items = trayMenuTemplate(w.desktop.trayState(), {
      open: () => clicked.push('open'),
      copyPhoneUrl: () => w.desktop.copyPhoneUrl(),
      makeRecoveryCode: () => clicked.push('recovery'),
      toggleOpenAtLogin: () => w.desktop.toggleOpenAtLogin(),
      quit: () => clicked.push('quit'),
      openBackups: () => clicked.push('backups'),
    });
    const labels = items.filter((i) => i.type !== 'separator').map((i) => i.label);
    assert.deepEqual(labels, [
      'Open Hearth',
      'On a phone, open http://192.168.1.20:8420/',
      'Owner locked out? Make a recovery code…',
      'Start at login',
      'Quit Hearth',
    ]);
    const byLabel = (l: string) => items.find((i) => i.label === l)!;
    (byLabel('On a phone, open http://192.168.1.20:8420/').click as () => void)();
    assert.deepEqual(w.app.clipboard, ['http://192.168.1.20:8420/']);
    assert.equal(byLabel('Start at login').checked, false);
    (byLabel('Start at login').click as () => void)();
    assert.equal(w.app.login, true);
    assert.equal(w.trays.at(-1)!.openAtLogin, true, 'the tray is redrawn with the toggle on');
    (byLabel('Quit Hearth').click as () => void)();
    (byLabel('Open Hearth').click as () => void)();
    (byLabel('Owner locked out? Make a recovery code…').click as () => void)();
    assert.deepEqual(clicked, ['quit', 'open', 'recovery']);
  });

  test('without a network the phone item says what to do and cannot be clicked', async () => {
    const w = world({ lan: [] });
    await w.desktop.start();
    const item = trayMenuTemplate(w.desktop.trayState(), noop).find((i) => /network/.test(i.label ?? ''))!;
    assert.equal(item.enabled, false);
    w.desktop.copyPhoneUrl();
    assert.deepEqual(w.app.clipboard, []);
  });
});

describe('first-run setup in the window', () => {
  const noop = { open() {}, copyPhoneUrl() {}, makeRecoveryCode() {}, toggleOpenAtLogin() {}, quit() {}, openBackups() {} };

  test('before the owner exists the tray hands out no phone address (the server is on this PC only) and offers no recovery code; its item opens the window', async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    const state = w.trays.at(-1)!;
    assert.equal(state.awaitingSetup, true);
    assert.equal(state.phoneUrl, null);
    const opened: string[] = [];
    const items = trayMenuTemplate(state, { ...noop, open: () => opened.push('open') });
    const labels = items.filter((i) => i.type !== 'separator').map((i) => i.label);
    assert.deepEqual(labels, ['Open Hearth', 'Finish setup in the Hearth window to connect phones', 'Start at login', 'Quit Hearth']);
    (items.find((i) => i.label?.startsWith('Finish setup'))!.click as () => void)();
    assert.deepEqual(opened, ['open']);
    w.desktop.copyPhoneUrl();
    assert.deepEqual(w.app.clipboard, [], 'no address to copy yet');
  });

  test('setup through the window goes to the server; once done the tray shows the phone address at once', async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    const result = await w.desktop.setupOwner({ username: 'dad', password: 'our family photos 1', server_name: 'The Millers' });
    assert.equal(result.ok, true);
    assert.deepEqual(w.server.setups, [{ username: 'dad', password: 'our family photos 1', server_name: 'The Millers' }]);
    assert.equal(w.trays.at(-1)!.awaitingSetup, false);
    assert.equal(w.trays.at(-1)!.phoneUrl, 'http://192.168.1.20:8420/');
  });

  test("a refused setup (a weak password) answers the server's error and changes nothing in the tray", async () => {
    const w = world();
    w.server.setupRequired = true;
    w.server.setupAnswer = { ok: false, error: { code: 'weak_password', message: 'Passwords are 10 to 256 characters long.' } };
    await w.desktop.start();
    const trays = w.trays.length;
    assert.deepEqual(await w.desktop.setupOwner({ username: 'dad', password: 'short' }), w.server.setupAnswer);
    assert.equal(w.trays.length, trays);
    assert.equal(w.desktop.trayState().awaitingSetup, true);
  });

  test('a server restarted after a crash before setup is still awaiting it', async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    w.server.crash!('exit code 1');
    w.timers[0]!.run();
    await new Promise((r) => setImmediate(r));
    assert.equal(w.trays.at(-1)!.awaitingSetup, true);
    assert.equal(w.trays.at(-1)!.phoneUrl, null);
  });
});

describe('restore from a backup in the window', () => {
  const source = { kind: 'folder' as const, path: '/media/usb/backups' };
  const overdue: BackupHealth = {
    state: 'overdue',
    headline: 'No backup for 4 days',
    reason: 'The backup folder /media/usb/backups is not there.',
    destination_id: 'd1',
    last_success_at: NOW - 4 * 86_400_000,
  };

  test("the window's restore goes to the server (the network's route is shut in the app) and its answers come back as they are", async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    const found = await w.desktop.restoreSnapshots(source);
    assert.equal(found.ok && found.value.items[0]!.id, 'snap-1');
    const run = await w.desktop.startRestore({ ...source, snapshot_id: 'snap-1' });
    assert.equal(run.ok && run.value.state, 'running');
    assert.deepEqual(w.server.restores, [
      ['snapshots', source],
      ['restore', { ...source, snapshot_id: 'snap-1' }],
    ]);
    assert.equal(w.desktop.trayState().awaitingSetup, true, 'nothing changes until the server has started again on the restored data');
  });

  test('once the server has started again on the restored data, the tray shows the phone address and the window opens the restored Hearth afresh', async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    assert.equal(w.trays.at(-1)!.awaitingSetup, true);
    assert.equal(w.trays.at(-1)!.phoneUrl, null);
    const shown = w.shown.length;
    w.server.restarted!({ url: 'http://127.0.0.1:8420', port: 8420, setupRequired: false });
    assert.equal(w.trays.at(-1)!.awaitingSetup, false);
    assert.equal(w.trays.at(-1)!.phoneUrl, 'http://192.168.1.20:8420/');
    assert.deepEqual(w.shown.slice(shown), ['/'], "the page of the fresh install's first screen is loaded again");
    assert.equal(w.desktop.serverUrl(), 'http://127.0.0.1:8420');
  });

  test("after the restart main still hears the restored server: its backups' health badges the tray and notifies", async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    w.server.restarted!({ url: 'http://127.0.0.1:8420', port: 8420, setupRequired: false });
    w.server.backupHealth!(overdue);
    assert.deepEqual(w.trays.at(-1)!.backupWarning, { headline: overdue.headline, reason: overdue.reason });
    assert.equal(w.notes.length, 1);
  });

  test('a server that could not start again on the restored data ends its process: it is started again, and found set up', async () => {
    const w = world();
    w.server.setupRequired = true;
    await w.desktop.start();
    // The restore was made ready before the failed start: the next start puts it in place.
    w.server.setupRequired = false;
    w.server.crash!('exit code 1');
    w.timers[0]!.run();
    await new Promise((r) => setImmediate(r));
    assert.equal(w.trays.at(-1)!.awaitingSetup, false);
    assert.equal(w.trays.at(-1)!.serverProblem, null);
  });
});

describe('owner recovery code from the tray', () => {
  test('it shows the code with what to do and how long it works; "Copy code" copies it', async () => {
    const w = world();
    await w.desktop.start();
    w.answers.push(0);
    await w.desktop.makeRecoveryCode();
    assert.equal(w.dialogs.length, 1);
    const box = w.dialogs[0]!;
    assert.equal(box.title, 'Owner recovery code');
    assert.equal(box.message, 'ABCDE-FGHJK-MNPQR-STVWX-YZ012-3');
    assert.match(box.detail, /"Owner locked out\?"/);
    assert.match(box.detail, /new password/);
    assert.match(box.detail, /once, for the next 15 minutes/);
    assert.deepEqual(box.buttons, ['Copy code', 'Close']);
    assert.deepEqual(w.app.clipboard, ['ABCDE-FGHJK-MNPQR-STVWX-YZ012-3']);
  });

  test('closing the box copies nothing; each click makes a new code', async () => {
    const w = world();
    await w.desktop.start();
    await w.desktop.makeRecoveryCode();
    await w.desktop.makeRecoveryCode();
    assert.deepEqual(w.app.clipboard, []);
    assert.equal(w.server.calls.filter((c) => c === 'recovery-code').length, 2);
  });

  test('when the server cannot keep a code because its disk is full (or read-only), the box says so, not that the server is not running', async () => {
    const w = world();
    await w.desktop.start();
    w.server.recoveryCode = { refused: 'storage_full' };
    await w.desktop.makeRecoveryCode();
    assert.equal(w.dialogs[0]!.message, 'No recovery code was made');
    assert.match(w.dialogs[0]!.detail, /disk is full/);
    assert.match(w.dialogs[0]!.detail, /Free some space/);
    assert.doesNotMatch(w.dialogs[0]!.detail, /not running/);
    w.server.recoveryCode = { refused: 'storage_read_only' };
    await w.desktop.makeRecoveryCode();
    assert.match(w.dialogs[1]!.detail, /read-only/);
    assert.deepEqual(w.app.clipboard, []);
  });

  test('when the server makes none (not running) the box says so', async () => {
    const w = world();
    await w.desktop.start();
    w.server.recoveryCode = null;
    await w.desktop.makeRecoveryCode();
    assert.equal(w.dialogs[0]!.message, 'No recovery code was made');
    assert.match(w.dialogs[0]!.detail, /not running/);
    assert.deepEqual(w.dialogs[0]!.buttons, ['Close']);
  });
});

describe('devices waiting for approval', () => {
  test('a pending device badges the tray and notifies "<device> wants to connect to <account>"; the click opens the devices page', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.server.pending!({ session_id: 's1', username: 'alice', device_name: 'Pixel 8' });
    assert.equal(w.trays.at(-1)!.pending, 1);
    assert.match(trayTooltip(w.trays.at(-1)!), /a device is waiting/);
    assert.equal(
      trayMenuTemplate(w.trays.at(-1)!, {
        open() {},
        copyPhoneUrl() {},
        makeRecoveryCode() {},
        toggleOpenAtLogin() {},
        quit() {},
        openBackups() {},
      })[0]!.label,
      'Open Hearth (1 waiting)',
    );
    assert.deepEqual(
      w.notes.map((n) => n.body),
      ['Pixel 8 wants to connect to alice'],
    );
    w.notes[0]!.click();
    assert.deepEqual(w.shown, [DEVICES_PATH]);
  });

  test('a device without a name is "A new device"; approving or denying it clears the badge; Open goes to devices while any waits', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.server.pending!({ session_id: 's1', username: 'bob', device_name: null });
    w.server.pending!({ session_id: 's2', username: 'bob', device_name: '  ' });
    assert.deepEqual(
      w.notes.map((n) => n.body),
      ['A new device wants to connect to bob', 'A new device wants to connect to bob'],
    );
    assert.equal(w.trays.at(-1)!.pending, 2);
    w.desktop.openWindow();
    w.server.settled!('s1');
    w.server.settled!('s2');
    assert.equal(w.trays.at(-1)!.pending, 0);
    w.desktop.openWindow();
    assert.deepEqual(w.shown, [DEVICES_PATH, undefined]);
    const before = w.trays.length;
    w.server.settled!('unknown');
    assert.equal(w.trays.length, before, 'an approval of a device the tray never showed changes nothing');
  });
});

describe('backups in the tray', () => {
  const OVERDUE: BackupHealth = {
    state: 'overdue',
    headline: 'No backup for 3 days',
    reason: 'The backup folder /media/usb is not there. Is its drive connected?',
    destination_id: 'd1',
    last_success_at: NOW - 3 * 86_400_000,
  };
  const OK: BackupHealth = { state: 'ok', headline: null, reason: null, destination_id: null, last_success_at: NOW };

  test('backups overdue badge the tray, say why in its tooltip and menu, and notify once; the item and the notification open the Backups page; a good backup ends it', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.server.backupHealth!(OVERDUE);
    const state = w.trays.at(-1)!;
    assert.deepEqual(state.backupWarning, { headline: OVERDUE.headline, reason: OVERDUE.reason });
    assert.equal(trayTooltip(state), 'Hearth: No backup for 3 days. The backup folder /media/usb is not there. Is its drive connected?');
    const clicked: string[] = [];
    const item = trayMenuTemplate(state, {
      open() {},
      copyPhoneUrl() {},
      makeRecoveryCode() {},
      toggleOpenAtLogin() {},
      quit() {},
      openBackups: () => w.desktop.openBackups(),
    }).find((i) => i.label === 'No backup for 3 days: see Backups…');
    assert.ok(item, 'the menu says it');
    (item.click as () => void)();
    assert.deepEqual(w.shown, [BACKUPS_PATH]);
    assert.deepEqual(
      w.notes.map((n) => n.body),
      ['No backup for 3 days. The backup folder /media/usb is not there. Is its drive connected?'],
    );
    w.notes[0]!.click();
    assert.deepEqual(w.shown, [BACKUPS_PATH, BACKUPS_PATH]);
    assert.deepEqual(clicked, []);

    // A day later, still overdue: the badge stays, no second notification.
    w.server.backupHealth!({ ...OVERDUE, headline: 'No backup for 4 days' });
    assert.equal(w.notes.length, 1);
    assert.equal(w.trays.at(-1)!.backupWarning?.headline, 'No backup for 4 days');

    w.server.backupHealth!(OK);
    assert.equal(w.trays.at(-1)!.backupWarning, null);
    assert.equal(trayTooltip(w.trays.at(-1)!), 'Hearth is running');
    assert.equal(
      trayMenuTemplate(w.trays.at(-1)!, {
        open() {},
        copyPhoneUrl() {},
        makeRecoveryCode() {},
        toggleOpenAtLogin() {},
        quit() {},
        openBackups() {},
      }).filter((i) => /backup/i.test(i.label ?? '')).length,
      0,
      'nothing about backups once one works',
    );
  });

  test('files but no backup yet: the menu offers to set one up, calmly (no badge, no notification, the usual tooltip)', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.server.backupHealth!({
      state: 'no_backup_yet',
      headline: 'Your files have no backup yet',
      reason: null,
      destination_id: null,
      last_success_at: null,
    });
    const state = w.trays.at(-1)!;
    assert.equal(state.noBackupYet, true);
    assert.equal(state.backupWarning, null);
    assert.equal(trayTooltip(state), 'Hearth is running');
    assert.deepEqual(w.notes, []);
    let opened = 0;
    const item = trayMenuTemplate(state, {
      open() {},
      copyPhoneUrl() {},
      makeRecoveryCode() {},
      toggleOpenAtLogin() {},
      quit() {},
      openBackups: () => opened++,
    }).find((i) => i.label === 'Set up a backup…');
    assert.ok(item);
    (item.click as () => void)();
    assert.equal(opened, 1);
  });
});

describe('quit', () => {
  test('quit closes the server completely before the app exits, once however often it is asked', async () => {
    const w = world();
    await w.desktop.start();
    let release!: () => void;
    w.server.stopGate = new Promise((r) => (release = r));
    assert.equal(w.desktop.windowCloseRequested(), 'hide', 'before quit, closing the window keeps the app in the tray');
    const first = w.desktop.quit();
    const second = w.desktop.quit();
    assert.equal(first, second);
    assert.equal(w.desktop.windowCloseRequested(), 'close');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(w.server.calls, ['start', 'stop:begin'], 'the app waits for the server');
    release();
    await first;
    assert.deepEqual(w.server.calls, ['start', 'stop:begin', 'stop:done', 'exit']);
  });

  test('a server that crashes is restarted after a pause while the tray says so; never during quit', async () => {
    const w = world({ startedAtLogin: true });
    await w.desktop.start();
    w.server.crash!('exit code 1');
    assert.match(w.trays.at(-1)!.serverProblem ?? '', /server stopped/);
    assert.equal(w.timers.length, 1);
    assert.equal(w.timers[0]!.ms, 1_000);
    w.timers[0]!.run();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(w.server.calls, ['start', 'start']);
    assert.equal(w.trays.at(-1)!.serverProblem, null);
    w.server.crash!('exit code 1');
    assert.equal(w.timers[1]!.ms, 5_000, 'the pause grows');
    await w.desktop.quit();
    w.timers[1]!.run();
    assert.equal(w.server.calls.filter((c) => c === 'start').length, 2);
  });
});

describe('paths and start at login', () => {
  test("the data lives under the app's user-data folder unless DATA_DIR says otherwise", () => {
    assert.equal(dataDirFor('/home/a/.config/Hearth', {}), '/home/a/.config/Hearth/data');
    assert.equal(dataDirFor('/home/a/.config/Hearth', { DATA_DIR: '/srv/hearth' }), '/srv/hearth');
  });

  test('start at login on Linux writes an XDG autostart entry that starts in the tray, and removes it', () => {
    const config = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-autostart-'));
    try {
      const autostart = new LinuxAutostart('/opt/Hearth "beta"/hearth', { XDG_CONFIG_HOME: config });
      assert.equal(autostart.enabled(), false);
      autostart.set(true);
      const entry = fs.readFileSync(path.join(config, 'autostart/hearth.desktop'), 'utf8');
      assert.match(entry, /^\[Desktop Entry\]$/m);
      assert.match(entry, /^Exec="\/opt\/Hearth \\"beta\\"\/hearth" --hidden$/m);
      assert.equal(autostart.enabled(), true);
      autostart.set(false);
      assert.equal(autostart.enabled(), false);
    } finally {
      fs.rmSync(config, { recursive: true, force: true });
    }
  });
});
