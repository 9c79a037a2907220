import type {
  AppPort,
  BackupHealth,
  BackupRun,
  BridgeResult,
  DialogPort,
  NotifierPort,
  OwnerSetup,
  PendingDevice,
  RecoveryRefusal,
  RestoreRequest,
  RestoreSnapshots,
  ServerHost,
  ServerStarted,
  SetupResult,
  TrayPort,
  TrayState,
  WindowPort,
} from './ports.ts';

/** Where the console lists devices waiting for approval (the web app's route). */
export const DEVICES_PATH = '/console/devices';
/** Where the console shows each backup destination and sets one up. */
export const BACKUPS_PATH = '/console/backups';
const RESTART_DELAYS_MS = [1_000, 5_000, 30_000];

/** Why the server could not keep a recovery code, and what the owner at the PC can do. */
const REFUSED_CODE: Record<RecoveryRefusal['refused'], string> = {
  storage_full:
    "Hearth's disk is full, so the code could not be saved. Free some space on this PC (empty the trash, move big files elsewhere), then try again.",
  storage_read_only:
    "Hearth's disk is read-only right now (the system does that after a disk error), so the code could not be saved. Have the disk checked, then restart Hearth and try again.",
};

export interface DesktopOptions {
  /** Started by the OS at login: stay in the tray unless there is something to set up. */
  startedAtLogin: boolean;
  lanUrls(port: number): string[];
  setTimer?: (run: () => void, ms: number) => unknown;
  now?: () => number;
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
  private setupRequired = false;
  private quitting: Promise<void> | null = null;
  private crashes = 0;
  private backup: BackupHealth | null = null;

  constructor(
    private readonly server: ServerHost,
    private readonly window: WindowPort,
    private readonly tray: TrayPort,
    private readonly notifier: NotifierPort,
    private readonly dialog: DialogPort,
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
    this.server.onBackupHealth((health) => this.backupHealthChanged(health));
    this.server.onRestarted((started) => this.serverRestored(started));
    const started = await this.server.start();
    this.port = started.port;
    this.url = started.url;
    this.setupRequired = started.setupRequired;
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
      // Until the owner exists the server listens on this PC only: no address to hand out.
      phoneUrl: this.setupRequired ? null : (this.options.lanUrls(this.port)[0] ?? null),
      awaitingSetup: this.setupRequired,
      openAtLogin: this.app.openAtLogin(),
      pending: this.pending.size,
      serverProblem: this.serverProblem,
      backupWarning:
        this.backup?.state === 'overdue' && this.backup.headline !== null
          ? { headline: this.backup.headline, reason: this.backup.reason }
          : null,
      noBackupYet: this.backup?.state === 'no_backup_yet',
    };
  }

  openBackups(): void {
    this.window.show(BACKUPS_PATH);
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

  /**
   * First-run setup from the window, through the bridge: the owner is made in the server's
   * process, never over the network. Once done, the server listens on the home network and
   * the tray shows the address phones open.
   */
  async setupOwner(input: OwnerSetup): Promise<SetupResult> {
    const result = await this.server.setupOwner(input);
    if (result.ok) {
      this.setupRequired = false;
      this.renderTray();
    }
    return result;
  }

  /**
   * "Restore from a backup" on the window's first screen, through the bridge: the server takes
   * no restore from the network in the desktop app (as it takes no setup), and the window is
   * the owner at the PC. The server checks everything; the window's page shows the progress.
   */
  restoreSnapshots(input: RestoreRequest): Promise<BridgeResult<RestoreSnapshots>> {
    return this.server.restoreSnapshots(input);
  }

  startRestore(input: RestoreRequest): Promise<BridgeResult<BackupRun>> {
    return this.server.startRestore(input);
  }

  /**
   * The tray's "Make an owner recovery code": a one-time code shown to whoever is at the PC,
   * for the sign-in page's "Owner locked out?" on any device. Being at the PC is the proof.
   */
  async makeRecoveryCode(): Promise<void> {
    const made = await this.server.ownerRecoveryCode();
    if (made === null || 'refused' in made) {
      await this.dialog.show({
        title: 'Hearth',
        message: 'No recovery code was made',
        detail:
          made !== null
            ? REFUSED_CODE[made.refused]
            : this.setupRequired
              ? 'Hearth has no owner yet: finish setting it up in its window.'
              : 'The Hearth server is not running right now. Try again in a moment.',
        buttons: ['Close'],
      });
      return;
    }
    const minutes = Math.round((made.expires_at - this.now()) / 60_000);
    const choice = await this.dialog.show({
      title: 'Owner recovery code',
      message: made.code,
      detail:
        `On Hearth's sign-in page (on a phone or this PC), choose "Owner locked out?" and enter this code with a new password. ` +
        `It works once, for the next ${minutes} minutes. The owner's other devices are signed out when it is used.`,
      buttons: ['Copy code', 'Close'],
    });
    if (choice === 0) this.app.copyToClipboard(made.code);
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

  /**
   * The tray warns while backups are overdue, and a notification says so once when they become
   * overdue (not again for a new reason or another day: the badge stays until a backup works).
   */
  private backupHealthChanged(health: BackupHealth): void {
    const wasOverdue = this.backup?.state === 'overdue';
    this.backup = health;
    this.renderTray();
    if (health.state === 'overdue' && !wasOverdue && health.headline !== null) {
      const body = health.reason === null ? `${health.headline}.` : `${health.headline}. ${health.reason}`;
      this.notifier.notify('Hearth', body, () => this.openBackups());
    }
  }

  /**
   * The server started again on the restored data (same process, same port): the family's
   * owner exists now, so the tray shows the phone address, and the window opens the restored
   * Hearth afresh (its page still holds the fresh install's first screen).
   */
  private serverRestored(started: ServerStarted): void {
    this.port = started.port;
    this.url = started.url;
    this.setupRequired = started.setupRequired;
    this.serverProblem = null;
    this.pending.clear();
    this.renderTray();
    this.window.show('/');
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
          this.setupRequired = started.setupRequired;
          this.serverProblem = null;
          this.renderTray();
        },
        (error: unknown) => this.serverCrashed(String(error)),
      );
    }, delay);
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private renderTray(): void {
    this.tray.render(this.trayState());
  }
}
