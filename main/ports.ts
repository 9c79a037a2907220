/**
 * What the desktop's decisions need from the world, as small interfaces: Electron implements
 * them in index.ts, tray.ts and window.ts; the unit tests implement them with plain fakes.
 */
import type { TokenResponse } from '../server/src/contract/dto.ts';

/** A device waiting for approval, as the server announces it (`device.pending`). */
export interface PendingDevice {
  session_id: string;
  username: string;
  device_name: string | null;
}

/** The server, wherever it runs (a utility process, or this process in tests). */
export interface ServerHost {
  /** Starts the server; resolves with where the window reaches it. */
  start(): Promise<{ url: string; port: number; setupRequired: boolean }>;
  /** A token pair for the owner at the machine, or null before setup. */
  localOwnerSession(): Promise<TokenResponse | null>;
  /** Closes the server cleanly: uploads stay resumable, nothing acknowledged is lost. */
  stop(): Promise<void>;
  onPending(listener: (device: PendingDevice) => void): void;
  /** A waiting device was approved or denied (by anyone, from anywhere). */
  onSettled(listener: (sessionId: string) => void): void;
  /** The server stopped without being asked to. */
  onCrash(listener: (reason: string) => void): void;
}

export interface WindowPort {
  /** Shows and focuses the window, creating it when needed, at `path` of the server's app. */
  show(path?: string): void;
  isOpen(): boolean;
}

export interface TrayState {
  /** What a phone types (the first LAN address), or null when the PC has no network. */
  phoneUrl: string | null;
  openAtLogin: boolean;
  pending: number;
  /** Why the server is not running, when it is not. */
  serverProblem: string | null;
}

export interface TrayPort {
  render(state: TrayState): void;
}

export interface NotifierPort {
  /** A native notification; `onClick` runs when the owner clicks it. */
  notify(title: string, body: string, onClick: () => void): void;
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
