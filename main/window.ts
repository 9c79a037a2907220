import { BrowserWindow, shell, type Session, type WebContents, type WebPreferences } from 'electron';
import { sameOrigin } from './ipc.ts';

import type { WindowPort } from './ports.ts';

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
    // A load cut short (a newer one, the server restarting, quit) rejects: nothing to do then.
    const load = (window: BrowserWindow) => window.loadURL(target).catch(() => {});
    if (this.window === null || this.window.isDestroyed()) {
      this.window = this.create();
      void load(this.window);
      this.window.once('ready-to-show', () => this.window?.show());
      return;
    }
    if (path !== undefined) void load(this.window);
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
