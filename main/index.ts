/**
 * The desktop app: hosts the server (in a utility process), keeps a tray icon, and shows the
 * web app in one hardened window signed in as the owner at the machine. The decisions live in
 * lifecycle.ts; this file only wires Electron to them.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, clipboard, dialog, ipcMain, Notification, session } from 'electron';
import { configFromEnv } from '../server/src/config.ts';
import { LinuxAutostart } from './autostart.ts';
import { Desktop } from './lifecycle.ts';
import { dataDirFor } from './paths.ts';
import type { AppPort, DialogPort, NotifierPort, TrayPort, TrayState } from './ports.ts';
import { UtilityServerHost } from './server-host.ts';
import { ElectronTray } from './tray.ts';
import { registerIpc } from './ipc.ts';
import { denyPermissions, guardContents, HearthWindow } from './window.ts';
import { listLanAddresses } from '../server/src/platform/network.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const resources = app.isPackaged ? path.join(process.resourcesPath, 'icons') : path.join(here, '..', 'resources');
const trayIcon = (name: string) =>
  path.join(
    resources,
    'tray',
    process.platform === 'win32' ? `${name}.ico` : process.platform === 'darwin' ? `${name}Template.png` : `${name}-22.png`,
  );

const env = configFromEnv();
const config = {
  ...env,
  dataDir: dataDirFor(app.getPath('userData'), process.env),
  sqliteEngine: 'node' as const,
  // Setup comes from this app's window, and the server is closed to the network until then.
  hostedSetup: true,
  // Phones find it as <server-name>.local once it is open to the network (ANNOUNCE=0 turns it off).
  announce: env.announce ?? true,
};

const autostart = process.platform === 'linux' ? new LinuxAutostart(process.env.APPIMAGE ?? process.execPath) : null;
const appPort: AppPort = {
  claimSingleInstance: () => app.requestSingleInstanceLock(),
  openAtLogin: () => autostart?.enabled() ?? app.getLoginItemSettings().openAtLogin,
  setOpenAtLogin: (on) => (autostart ? autostart.set(on) : app.setLoginItemSettings({ openAtLogin: on, args: ['--hidden'] })),
  copyToClipboard: (text) => clipboard.writeText(text),
  exit: () => app.exit(0),
};
const notifier: NotifierPort = {
  notify(title, body, onClick) {
    if (!Notification.isSupported()) return;
    const notification = new Notification({ title, body });
    notification.on('click', onClick);
    notification.show();
  },
};

const dialogs: DialogPort = {
  async show({ title, message, detail, buttons }) {
    const { response } = await dialog.showMessageBox({
      type: 'info',
      title,
      message,
      detail,
      buttons,
      defaultId: 0,
      cancelId: buttons.length - 1,
      noLink: true,
    });
    return response;
  },
};

// The tray exists only once Electron is ready; until then its state is kept for it.
let tray: ElectronTray | null = null;
let lastTrayState: TrayState | null = null;
const trayPort: TrayPort = {
  render(state) {
    lastTrayState = state;
    tray?.render(state);
  },
};

const server = new UtilityServerHost(path.join(here, 'server-child.js'), config);
const window: HearthWindow = new HearthWindow({
  baseUrl: (): string => desktop.serverUrl(),
  preload: path.join(here, 'preload.cjs'),
  icon: path.join(resources, 'icons', '512x512.png'),
  onCloseRequested: () => desktop.windowCloseRequested(),
});
const desktop: Desktop = new Desktop(server, window, trayPort, notifier, dialogs, appPort, {
  startedAtLogin: process.argv.includes('--hidden') || app.getLoginItemSettings().wasOpenedAtLogin === true,
  lanUrls: (port) => listLanAddresses().map((a) => `http://${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${port}/`),
});
const origin = () => (desktop.serverUrl() ? new URL(desktop.serverUrl()).origin : 'null');

if (process.platform === 'win32') app.setAppUserModelId('org.hearth.desktop');
app.on('web-contents-created', (_event, contents) => guardContents(contents, origin));
app.on('second-instance', () => desktop.secondInstance());
// Closing the last window leaves the app in the tray, serving the family's phones.
app.on('window-all-closed', () => {});
app.on('before-quit', (event) => {
  if (desktop.isQuitting()) return;
  event.preventDefault();
  void desktop.quit();
});

app
  .whenReady()
  .then(async () => {
    denyPermissions(session.defaultSession);
    registerIpc(ipcMain, origin, {
      localSession: () => server.localOwnerSession(),
      copyText: (text) => clipboard.writeText(text),
      setup: (input) => desktop.setupOwner(input),
      restoreSnapshots: (input) => desktop.restoreSnapshots(input),
      restore: (input) => desktop.startRestore(input),
    });
    tray = new ElectronTray(
      { normal: trayIcon('tray'), attention: trayIcon('tray-attention') },
      {
        open: () => desktop.openWindow(),
        copyPhoneUrl: () => desktop.copyPhoneUrl(),
        makeRecoveryCode: () => void desktop.makeRecoveryCode(),
        openBackups: () => desktop.openBackups(),
        toggleOpenAtLogin: () => desktop.toggleOpenAtLogin(),
        quit: () => void desktop.quit(),
      },
    );
    if (lastTrayState) tray.render(lastTrayState);
    await desktop.start();
  })
  .catch((error: unknown) => {
    console.error('Hearth could not start:', error);
    // The owner at the PC reads why (its data folder in use, a database to put back from the
    // backup): the server's refusals are written for them, and a silent exit tells them nothing.
    dialog.showErrorBox('Hearth could not start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
