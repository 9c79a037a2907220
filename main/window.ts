import { BrowserWindow, shell, type IpcMain, type IpcMainInvokeEvent, type Session, type WebContents, type WebPreferences } from 'electron';
import type { WindowPort } from './ports.ts';

/** The only messages the page may send to main (see preload.ts). */
export const IPC = {
  localSession: 'hearth:local-session',
  copyText: 'hearth:copy-text',
} as const;

/** Electron's security checklist for a window that shows web content. */
export function hardenedWebPreferences(preload: string): WebPreferences {
  return {
    preload,
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
  };
}

export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/** http(s) links leave for the OS browser; anything else (file:, javascript:, custom schemes) goes nowhere. */
function openOutside(url: string): void {
  try {
    const protocol = new URL(url).protocol;
    if (protocol === 'http:' || protocol === 'https:') void shell.openExternal(url);
  } catch {
    // not a URL: nothing to open
  }
}

/**
 * Guards every web contents the app makes: navigation stays on the server's origin (anything
 * else opens in the OS browser), new windows never open inside the app, and no <webview>.
 */
export function guardContents(contents: WebContents, origin: () => string): void {
  const keepHome = (event: { preventDefault(): void }, url: string) => {
    if (sameOrigin(url, origin())) return;
    event.preventDefault();
    openOutside(url);
  };
  contents.on('will-navigate', (event) => keepHome(event, event.url));
  contents.on('will-redirect', (event) => keepHome(event, event.url));
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
}

/** The window asks for no camera, microphone, location, notifications or anything else: all refused. */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/**
 * The page's requests to main: each checks that it comes from the server's own page in the
 * main frame (not an iframe, not another site the window was somehow shown) and what it carries.
 */
export function registerIpc(
  ipcMain: IpcMain,
  origin: () => string,
  handlers: { localSession(): Promise<unknown>; copyText(text: string): void },
): void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return frame !== null && frame === event.sender.mainFrame && sameOrigin(frame.url, origin());
  };
  ipcMain.handle(IPC.localSession, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error('refused: not the server\'s page');
    if (args.length !== 0) throw new Error('refused: this call takes no arguments');
    return handlers.localSession();
  });
  ipcMain.handle(IPC.copyText, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error('refused: not the server\'s page');
    const [text] = args;
    if (args.length !== 1 || typeof text !== 'string' || text.length === 0 || text.length > 2048) throw new Error('refused: copyText takes one string of up to 2048 characters');
    handlers.copyText(text);
  });
}

export interface WindowOptions {
  /** The server's address as this PC reaches it (http://127.0.0.1:<port>). */
  baseUrl(): string;
  preload: string;
  icon?: string;
  /** What the close button does: hide to the tray, or close while quitting. */
  onCloseRequested(): 'hide' | 'close';
}

/** The one window: created on first show, hidden (not destroyed) when closed. */
export class HearthWindow implements WindowPort {
  private window: BrowserWindow | null = null;

  constructor(private readonly options: WindowOptions) {}

  isOpen(): boolean {
    return this.window !== null && !this.window.isDestroyed() && this.window.isVisible();
  }

  show(path?: string): void {
    const target = new URL(path ?? '/', this.options.baseUrl()).toString();
    if (this.window === null || this.window.isDestroyed()) {
      this.window = this.create();
      void this.window.loadURL(target);
      this.window.once('ready-to-show', () => this.window?.show());
      return;
    }
    if (path !== undefined) void this.window.loadURL(target);
    if (this.window.isMinimized()) this.window.restore();
    this.window.show();
    this.window.focus();
  }

  private create(): BrowserWindow {
    const window = new BrowserWindow({
      width: 1200,
      height: 820,
      minWidth: 360,
      minHeight: 480,
      show: false,
      title: 'Hearth',
      backgroundColor: '#ffffff',
      autoHideMenuBar: true,
      ...(this.options.icon ? { icon: this.options.icon } : {}),
      webPreferences: hardenedWebPreferences(this.options.preload),
    });
    window.on('close', (event) => {
      if (this.options.onCloseRequested() === 'hide') {
        event.preventDefault();
        window.hide();
      }
    });
    window.on('closed', () => {
      if (this.window === window) this.window = null;
    });
    return window;
  }
}
