/**
 * A test double of the few Electron APIs main/ uses, for end-to-end tests without the
 * Electron binary. Each BrowserWindow is a Playwright page in Debian Chromium; the preload runs
 * in the page; ipcRenderer.invoke reaches ipcMain.handle through a Playwright binding;
 * will-navigate and the window-open handler are emulated (a guard removed from main/ shows);
 * utilityProcess.fork is child_process.fork with a parentPort; tray, menu, notifications,
 * shell and clipboard record their calls. The test drives and reads it over Node's IPC channel.
 */
import { fork, spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { URL } from 'node:url';

const HERE = path.dirname(new URL(import.meta.url).pathname);
const PRELOAD_BINDING = '__hearthDoubleInvoke';
const OPEN_BINDING = '__hearthDoubleWindowOpen';
const userData = process.env.HEARTH_DOUBLE_USERDATA;

const records = {
  windows: [],
  trayImages: [],
  tooltips: [],
  menu: [],
  notifications: [],
  dialogs: [],
  openExternal: [],
  clipboard: [],
  loginItems: [],
  utilityPids: [],
  errorBoxes: [],
};
// The buttons the test will click in the next message boxes (by index); none: the box is dismissed.
const dialogAnswers = [];
let browser = null;
const windows = [];
let permissionRequestHandler = null;
let permissionCheckHandler = null;

// ---- app ----
class App extends EventEmitter {
  isPackaged = false;
  getPath(name) {
    if (name !== 'userData') throw new Error(`the double knows only userData, not ${name}`);
    return userData;
  }
  whenReady() {
    return ready;
  }
  requestSingleInstanceLock() {
    return singleInstance();
  }
  getLoginItemSettings() {
    return { openAtLogin: false, wasOpenedAtLogin: false };
  }
  setLoginItemSettings(settings) {
    records.loginItems.push(settings);
  }
  setAppUserModelId() {}
  exit(code = 0) {
    void shutdown(code);
  }
  quit() {
    const event = preventable();
    this.emit('before-quit', event);
    if (!event.defaultPrevented) void shutdown(0);
  }
}
export const app = new App();

function preventable(extra = {}) {
  return {
    defaultPrevented: false,
    preventDefault() {
      this.defaultPrevented = true;
    },
    ...extra,
  };
}

async function shutdown(code) {
  await browser?.close().catch(() => {});
  lockServer?.close();
  process.exit(code);
}

// Single instance: a Unix socket in userData, as Electron uses a socket in its own way.
let lockServer = null;
function singleInstance() {
  const socket = path.join(userData, 'double-instance.sock');
  const claim = () => {
    lockServer = net.createServer((conn) =>
      conn.on('data', (argv) => app.emit('second-instance', preventable(), JSON.parse(String(argv)), process.cwd())),
    );
    lockServer.listen(socket);
  };
  try {
    const stat = fs.statSync(socket);
    if (stat) {
      // Someone holds it if it answers; a stale socket from a killed run does not.
      const answered = syncConnect(socket);
      if (answered) return false;
      fs.rmSync(socket);
    }
  } catch {
    // no socket yet
  }
  claim();
  return true;
}
function syncConnect(socket) {
  // requestSingleInstanceLock answers at once, so the second instance's word to the first goes synchronously.
  const result = spawnSync(process.execPath, [path.join(HERE, 'notify-instance.mjs'), socket, JSON.stringify(process.argv)], {
    timeout: 5_000,
  });
  return result.status === 0;
}

// ---- the control channel the test drives ----
process.on('message', async (message) => {
  if (!message || typeof message.cmd !== 'string') return;
  const reply = (result, error) => process.send({ id: message.id, result, error });
  try {
    reply(await command(message));
  } catch (error) {
    reply(undefined, String(error?.stack ?? error));
  }
});

async function command(m) {
  const win = windows.find((w) => !w.destroyed);
  switch (m.cmd) {
    case 'records':
      return {
        ...records,
        windows: windows.map((w) => ({
          url: w.page?.url() ?? null,
          visible: w.visible,
          destroyed: w.destroyed,
          shows: w.shows,
          webPreferences: w.options.webPreferences,
        })),
      };
    case 'clickMenu': {
      const item = records.menu
        .at(-1)
        ?.find((i) => (m.label !== undefined && i.label === m.label) || (m.prefix !== undefined && i.label?.startsWith(m.prefix)));
      if (!item) throw new Error(`no tray menu item ${m.label ?? m.prefix}`);
      item.click?.();
      return true;
    }
    case 'answerDialog':
      dialogAnswers.push(m.response);
      return true;
    case 'clickNotification':
      notifications[m.index].emit('click');
      return true;
    case 'eval':
      await win.loaded;
      return win.page.evaluate(m.script);
    case 'closeWindow':
      return win.requestClose();
    case 'permission': {
      let decision = null;
      permissionRequestHandler?.(win?.webContents ?? null, m.permission, (granted) => (decision = granted), {});
      return { requested: decision, checked: permissionCheckHandler?.(null, m.permission, 'http://127.0.0.1', {}) ?? null };
    }
    case 'quit':
      app.quit();
      return true;
    default:
      throw new Error(`unknown command ${m.cmd}`);
  }
}

const ready = Promise.resolve();

// Chromium starts with the first window (an app started in the tray has none), as do Playwright's modules.
let launching = null;
function ensureBrowser() {
  launching ??= (async () => {
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  })();
  return launching;
}

// ---- windows ----
class WebContents extends EventEmitter {
  constructor(win) {
    super();
    this.win = win;
    this.windowOpenHandler = null;
    this.mainFrame = {
      get url() {
        return win.page?.url() ?? '';
      },
    };
  }
  setWindowOpenHandler(handler) {
    this.windowOpenHandler = handler;
  }
  getURL() {
    return this.win.page?.url() ?? '';
  }
}

export class BrowserWindow extends EventEmitter {
  constructor(options = {}) {
    super();
    this.options = options;
    this.visible = false;
    this.destroyed = false;
    this.shows = 0;
    this.webContents = new WebContents(this);
    windows.push(this);
    app.emit('web-contents-created', preventable(), this.webContents);
    this.created = this.create();
  }

  async create() {
    await ensureBrowser();
    const context = await browser.newContext({ viewport: { width: this.options.width ?? 1200, height: this.options.height ?? 800 } });
    const page = await context.newPage();
    this.page = page;
    const preload = this.options.webPreferences?.preload;
    await page.exposeBinding(PRELOAD_BINDING, async (source, channel, args) => {
      const frame = source.frame === page.mainFrame() ? this.webContents.mainFrame : { url: source.frame.url() };
      return ipcMain.invoke(channel, { sender: this.webContents, senderFrame: frame }, args);
    });
    await page.exposeBinding(OPEN_BINDING, (_source, url) => this.windowOpen(url));
    await page.addInitScript({ content: initScript(preload ? fs.readFileSync(preload, 'utf8') : '') });
    // Navigation the page starts (links, location, forms) asks will-navigate first, as in Electron.
    await page.route('**/*', (route) => {
      const request = route.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame() || this.programmatic === request.url())
        return route.continue();
      const event = preventable({ url: request.url() });
      this.webContents.emit('will-navigate', event, request.url());
      return event.defaultPrevented ? route.abort('aborted') : route.continue();
    });
    // A window opened anyway (no handler denied it) shows up as a second window.
    context.on('page', (popup) => {
      if (popup === page) return;
      const other = new BrowserWindow({});
      other.page = popup;
    });
  }

  windowOpen(url) {
    const decision = this.webContents.windowOpenHandler?.({
      url,
      frameName: '',
      features: '',
      disposition: 'new-window',
      referrer: { url: '', policy: 'default' },
      postBody: null,
    }) ?? { action: 'allow' };
    if (decision.action === 'allow') {
      const other = new BrowserWindow({});
      void other.loadURL(url);
    }
    return decision.action;
  }

  loadURL(url) {
    this.loaded = (async () => {
      await this.created;
      this.programmatic = url;
      try {
        await this.page.goto(url);
      } finally {
        this.programmatic = null;
      }
      this.emit('ready-to-show');
    })();
    return this.loaded;
  }

  show() {
    this.visible = true;
    this.shows++;
  }
  hide() {
    this.visible = false;
  }
  focus() {}
  isVisible() {
    return this.visible;
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  restore() {}

  async requestClose() {
    const event = preventable();
    this.emit('close', event);
    if (event.defaultPrevented) return 'kept';
    this.destroyed = true;
    this.visible = false;
    await this.page?.context().close();
    this.emit('closed');
    return 'closed';
  }
}

/** The preload as Electron runs it sandboxed: `require('electron')` gives contextBridge and ipcRenderer, nothing else. */
function initScript(preloadSource) {
  return `(() => {
    const realOpen = window.open;
    window.open = (url) => { window.${OPEN_BINDING}(String(new URL(url, location.href))); return null; };
    document.addEventListener('click', (event) => {
      const link = event.target instanceof Element ? event.target.closest('a[target="_blank"]') : null;
      if (!link) return;
      event.preventDefault();
      window.${OPEN_BINDING}(link.href);
    }, true);
    const electron = {
      contextBridge: { exposeInMainWorld: (key, api) => Object.defineProperty(window, key, { value: api, writable: false, configurable: false, enumerable: true }) },
      ipcRenderer: { invoke: (channel, ...args) => window.${PRELOAD_BINDING}(channel, args) },
    };
    const module = { exports: {} };
    const require = (name) => { if (name === 'electron') return electron; throw new Error('a sandboxed preload cannot require ' + name); };
    void realOpen;
    (function (require, module, exports) { ${preloadSource}\n })(require, module, module.exports);
  })();`;
}

// ---- ipc ----
export const ipcMain = {
  handlers: new Map(),
  handle(channel, handler) {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, handler);
  },
  async invoke(channel, event, args) {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return handler(event, ...args);
  },
};

// ---- tray, menus, notifications, shell, clipboard ----
export const nativeImage = { createFromPath: (file) => ({ path: file }) };
export const Menu = { buildFromTemplate: (template) => ({ template }) };

export class Tray extends EventEmitter {
  constructor(image) {
    super();
    records.trayImages.push(image.path);
  }
  setImage(image) {
    records.trayImages.push(image.path);
  }
  setToolTip(text) {
    records.tooltips.push(text);
  }
  setContextMenu(menu) {
    records.menu.push(menu.template);
  }
  destroy() {}
}

const notifications = [];
export class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    this.options = options;
  }
  show() {
    notifications.push(this);
    records.notifications.push({ title: this.options.title, body: this.options.body });
  }
}

export const dialog = {
  // dialog.showMessageBox([window, ]options): recorded; answers the button the test chose, else the cancel one.
  showMessageBox: async (...args) => {
    const options = args.length > 1 ? args[1] : args[0];
    records.dialogs.push({ title: options.title, message: options.message, detail: options.detail, buttons: options.buttons });
    return { response: dialogAnswers.shift() ?? options.cancelId ?? 0, checkboxChecked: false };
  },
  // An error box is the app's last word before it exits: written out (the test reads the output), not only recorded.
  showErrorBox(title, content) {
    records.errorBoxes.push({ title, content });
    process.stdout.write(`[error box] ${title}\n${content}\n`);
  },
};

export const shell = {
  openExternal: async (url) => {
    records.openExternal.push(url);
  },
};
export const clipboard = { writeText: (text) => records.clipboard.push(text) };

export const session = {
  defaultSession: {
    setPermissionRequestHandler: (handler) => (permissionRequestHandler = handler),
    setPermissionCheckHandler: (handler) => (permissionCheckHandler = handler),
  },
};

// ---- utility process ----
export const utilityProcess = {
  fork(modulePath, args = [], options = {}) {
    const child = fork(modulePath, args, {
      execArgv: ['--import', new URL('./register.mjs', import.meta.url).href],
      env: { ...process.env, ...options.env, HEARTH_DOUBLE_UTILITY: '1' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
    });
    records.utilityPids.push(child.pid);
    const proc = new EventEmitter();
    proc.pid = child.pid;
    // Electron drops a message to a utility process that has just died; Node's send would
    // emit an 'error' on the child (EPIPE, channel closed) and take main down with it.
    proc.postMessage = (message) => child.connected && child.send(message, () => {});
    child.on('error', () => {});
    proc.kill = () => child.kill();
    child.on('message', (message) => proc.emit('message', message));
    child.on('exit', (code) => proc.emit('exit', code ?? 1));
    return proc;
  },
};

export default { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, session, shell, clipboard, Tray, utilityProcess };
