/**
 * What the desktop's decisions need from the world, as small interfaces: Electron implements
 * them in index.ts, tray.ts and window.ts; the unit tests implement them with plain fakes.
 */
import type { BackupHealth, BackupRun, RestoreSnapshots } from '../server/src/contract/backup-responses.ts';
import type { TokenResponse } from '../server/src/contract/identity-responses.ts';

export type { BackupHealth, BackupRun, RestoreSnapshots };

/** A device waiting for approval, as the server announces it (`device.pending`). */
export interface PendingDevice {
  session_id: string;
  username: string;
  device_name: string | null;
}

/** First-run setup as the window's form sends it through the bridge. */
export interface OwnerSetup {
  username: string;
  password: string;
  server_name?: string | undefined;
}

/** Setup's answer for the window: the owner's desktop session, or the server's error as the API would give it. */
export type SetupResult =
  { ok: true; tokens: TokenResponse } | { ok: false; error: { code: string; message: string; field?: string | undefined } };

/** A fresh install's restore as the window's form sends it through the bridge: the backup folder or bucket, its kit, the snapshot. */
export type RestoreRequest = (
  | { kind: 'folder'; path: string }
  | {
      kind: 's3';
      endpoint: string;
      region?: string | undefined;
      bucket: string;
      prefix?: string | undefined;
      access_key_id: string;
      secret_access_key: string;
    }
) & {
  key?: string | undefined;
  snapshot_id?: string | undefined;
  /** A snapshot from before backups were signed, restored at the owner's word. */
  accept_unsigned?: boolean | undefined;
};

/** An answer for the window: what the server gave, or its error as the API would give it. */
export type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; field?: string | undefined } };

/** Where the server answers now: after a start, or after it started again on restored data. */
export interface ServerStarted {
  url: string;
  port: number;
  setupRequired: boolean;
}

/** A one-time owner recovery code and when it stops working. */
export interface RecoveryCode {
  code: string;
  expires_at: number;
}

/** The server runs, but could not keep a code: its disk is full or read-only. */
export interface RecoveryRefusal {
  refused: 'storage_full' | 'storage_read_only';
}

/** The server, wherever it runs (a utility process, or this process in tests). */
export interface ServerHost {
  /** Starts the server; resolves with where the window reaches it. */
  start(): Promise<ServerStarted>;
  /** A token pair for the owner at the machine, or null before setup. */
  localOwnerSession(): Promise<TokenResponse | null>;
  /** First-run setup from the window (never over the network); the server then opens to the home network. */
  setupOwner(input: OwnerSetup): Promise<SetupResult>;
  /** A new owner recovery code; null before setup, or when the server is not running; why not when its disk refused it. */
  ownerRecoveryCode(): Promise<RecoveryCode | RecoveryRefusal | null>;
  /** A fresh install's restore from the window (never over the network): the snapshots of a backup folder. */
  restoreSnapshots(input: RestoreRequest): Promise<BridgeResult<RestoreSnapshots>>;
  /** ... and the restore of one; the server then starts again by itself on the restored data (onRestarted). */
  startRestore(input: RestoreRequest): Promise<BridgeResult<BackupRun>>;
  /** Closes the server cleanly: uploads stay resumable, nothing acknowledged is lost. */
  stop(): Promise<void>;
  /** The server started again on restored data, in the same process: it has an owner now. */
  onRestarted(listener: (started: ServerStarted) => void): void;
  onPending(listener: (device: PendingDevice) => void): void;
  /** A waiting device was approved or denied (by anyone, from anywhere). */
  onSettled(listener: (sessionId: string) => void): void;
  /** The server stopped without being asked to. */
  onCrash(listener: (reason: string) => void): void;
  /** Whether backups are overdue: once when the server is ready, then each time it changes. */
  onBackupHealth(listener: (health: BackupHealth) => void): void;
}

export interface WindowPort {
  /** Shows and focuses the window, creating it when needed, at `path` of the server's app. */
  show(path?: string): void;
  isOpen(): boolean;
}

export interface TrayState {
  /** What a phone types (the first LAN address), or null when the PC has no network or no owner yet. */
  phoneUrl: string | null;
  /** No owner yet: setup waits in the window, and phones cannot reach the server until it is done. */
  awaitingSetup: boolean;
  openAtLogin: boolean;
  pending: number;
  /** Why the server is not running, when it is not. */
  serverProblem: string | null;
  /** No good backup for days, and why when known: "No backup for 4 days", "The backup folder … is not there. …". */
  backupWarning: { headline: string; reason: string | null } | null;
  /** Files but no backup destination: a calm offer to set one up, no badge. */
  noBackupYet: boolean;
}

export interface TrayPort {
  render(state: TrayState): void;
}

export interface NotifierPort {
  /** A native notification; `onClick` runs when the owner clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
}

/** A message box for the owner at the PC. */
export interface DialogPort {
  /** Shows it; resolves with the index of the button chosen (the last one when it is dismissed). */
  show(box: { title: string; message: string; detail: string; buttons: string[] }): Promise<number>;
}

export interface AppPort {
  /** False when another instance holds the lock: this one must quit. */
  claimSingleInstance(): boolean;
  openAtLogin(): boolean;
  setOpenAtLogin(on: boolean): void;
  copyToClipboard(text: string): void;
  /** Ends the process (after the server is closed). */
  exit(): void;
}
