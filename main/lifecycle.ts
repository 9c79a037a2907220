import type { AppPort, NotifierPort, PendingDevice, ServerHost, TrayPort, TrayState, WindowPort } from './ports.ts';

/** Where the console lists devices waiting for approval (the web app's route). */
export const DEVICES_PATH = '/console/devices';
const RESTART_DELAYS_MS = [1_000, 5_000, 30_000];

export interface DesktopOptions {
  /** Started by the OS at login: stay in the tray unless there is something to set up. */
  startedAtLogin: boolean;
  lanUrls(port: number): string[];
  setTimer?: (run: () => void, ms: number) => unknown;
}

/**
 * The desktop app's decisions, free of Electron: what happens at start, on a second launch,
 * when a device waits, when the server stops on its own, and on quit.
 */
export class Desktop {
  private readonly pending = new Map<string, PendingDevice>();
  private port = 0;
  private url = '';
  private serverProblem: string | null = null;
  private quitting: Promise<void> | null = null;
  private crashes = 0;

  constructor(
    private readonly server: ServerHost,
    private readonly window: WindowPort,
    private readonly tray: TrayPort,
    private readonly notifier: NotifierPort,
    private readonly app: AppPort,
    private readonly options: DesktopOptions,
  ) {}

  /** False when another instance is running: it was told to show its window, and this one quits. */
  async start(): Promise<boolean> {
    if (!this.app.claimSingleInstance()) {
      this.app.exit();
      return false;
    }
    this.server.onPending((device) => this.devicePending(device));
    this.server.onSettled((sessionId) => {
      if (this.pending.delete(sessionId)) this.renderTray();
    });
    this.server.onCrash((reason) => this.serverCrashed(reason));
    const started = await this.server.start();
    this.port = started.port;
    this.url = started.url;
    this.renderTray();
    // First run always opens the window (setup happens there); a start at login stays in the tray.
    if (started.setupRequired || !this.options.startedAtLogin) this.window.show();
    return true;
  }

  /** Where this PC reaches the server (http://127.0.0.1:<port>): the window's one origin. */
  serverUrl(): string {
    return this.url;
  }

  /** Someone launched the app again: the running one comes forward instead. */
  secondInstance(): void {
    this.window.show();
  }

  /** The window's close button hides it; the server keeps serving the family's phones. */
  windowCloseRequested(): 'hide' | 'close' {
    return this.quitting ? 'close' : 'hide';
  }

  trayState(): TrayState {
    return {
      phoneUrl: this.options.lanUrls(this.port)[0] ?? null,
      openAtLogin: this.app.openAtLogin(),
      pending: this.pending.size,
      serverProblem: this.serverProblem,
    };
  }

  copyPhoneUrl(): void {
    const url = this.trayState().phoneUrl;
    if (url !== null) this.app.copyToClipboard(url);
  }

  toggleOpenAtLogin(): void {
    this.app.setOpenAtLogin(!this.app.openAtLogin());
    this.renderTray();
  }

  openWindow(): void {
    this.window.show(this.pending.size > 0 ? DEVICES_PATH : undefined);
  }

  /** Quit: the server closes cleanly first (uploads resumable, nothing acknowledged lost), then the app ends. */
  quit(): Promise<void> {
    this.quitting ??= (async () => {
      try {
        await this.server.stop();
      } finally {
        this.app.exit();
      }
    })();
    return this.quitting;
  }

  isQuitting(): boolean {
    return this.quitting !== null;
  }

  private devicePending(device: PendingDevice): void {
    this.pending.set(device.session_id, device);
    this.renderTray();
    const who = device.device_name?.trim() || 'A new device';
    this.notifier.notify('Hearth', `${who} wants to connect to ${device.username}`, () => this.window.show(DEVICES_PATH));
  }

  /** A crashed server comes back after a pause; the tray says so meanwhile, and stays up. */
  private serverCrashed(reason: string): void {
    if (this.quitting) return;
    this.serverProblem = `The server stopped (${reason}); restarting…`;
    this.pending.clear();
    this.renderTray();
    const delay = RESTART_DELAYS_MS[Math.min(this.crashes, RESTART_DELAYS_MS.length - 1)]!;
    this.crashes++;
    const setTimer = this.options.setTimer ?? ((run, ms) => setTimeout(run, ms));
    setTimer(() => {
      if (this.quitting) return;
      this.server.start().then(
        (started) => {
          this.port = started.port;
          this.url = started.url;
          this.serverProblem = null;
          this.renderTray();
        },
        (error: unknown) => this.serverCrashed(String(error)),
      );
    }, delay);
  }

  private renderTray(): void {
    this.tray.render(this.trayState());
  }
}
