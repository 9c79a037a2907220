import { utilityProcess, type UtilityProcess } from 'electron';
import type { ConfigInput } from '../server/src/config.ts';
import type { TokenResponse } from '../server/src/contract/identity-responses.ts';
import type { FromServer, ToServer } from './host-protocol.ts';
import type {
  BackupHealth,
  BackupRun,
  BridgeResult,
  OwnerSetup,
  PendingDevice,
  RecoveryCode,
  RecoveryRefusal,
  RestoreRequest,
  RestoreSnapshots,
  ServerHost,
  ServerStarted,
  SetupResult,
} from './ports.ts';

const STOP_TIMEOUT_MS = 20_000;
/** A bridge call's answer when there is no server process to ask, or it died before answering. */
const GONE = { ok: false, error: { code: 'unavailable', message: 'The server is not running. Try again in a moment.' } } as const;

/**
 * The server in an Electron utility process. Chosen over running it in main: a crash of the
 * server (or of a native module under it) ends that process only, so the tray stays and brings
 * it back; and main's event loop never waits on a listing or a hash. node:sqlite is the engine
 * either way (better-sqlite3 cannot load in Electron). The owner's session comes back over this
 * process's message port, never over HTTP.
 */
export class UtilityServerHost implements ServerHost {
  private child: UtilityProcess | null = null;
  private nextId = 1;
  /** Questions asked of the server's process, by id; answered with what it sent, or undefined if it died. */
  private readonly waiting = new Map<number, (answer: unknown) => void>();
  private pendingListeners: ((device: PendingDevice) => void)[] = [];
  private settledListeners: ((sessionId: string) => void)[] = [];
  private crashListeners: ((reason: string) => void)[] = [];
  private backupListeners: ((health: BackupHealth) => void)[] = [];
  private restartedListeners: ((started: ServerStarted) => void)[] = [];
  private stopping = false;

  constructor(
    private readonly entry: string,
    private readonly config: ConfigInput,
  ) {}

  start(): Promise<ServerStarted> {
    this.stopping = false;
    const child = utilityProcess.fork(this.entry, [], { serviceName: 'Hearth server', stdio: 'inherit' });
    this.child = child;
    return new Promise((resolve, reject) => {
      let ready = false;
      child.on('message', (message: FromServer) => {
        if (message.type === 'ready') {
          ready = true;
          resolve({ url: message.url, port: message.port, setupRequired: message.setupRequired });
        } else if (message.type === 'failed') reject(new Error(message.error));
        else if (message.type === 'local-session') this.answer(message.id, message.tokens);
        else if (message.type === 'setup') this.answer(message.id, message.result);
        else if (message.type === 'recovery-code') this.answer(message.id, message.refused ? { refused: message.refused } : message.code);
        else if (message.type === 'pending') for (const listener of this.pendingListeners) listener(message.device);
        else if (message.type === 'settled') for (const listener of this.settledListeners) listener(message.sessionId);
        else if (message.type === 'backup-health') for (const listener of this.backupListeners) listener(message.health);
        else if (message.type === 'restore-snapshots' || message.type === 'restore') this.answer(message.id, message.result);
        else if (message.type === 'restarted') {
          const started = { url: message.url, port: message.port, setupRequired: message.setupRequired };
          for (const listener of this.restartedListeners) listener(started);
        }
      });
      child.once('exit', (code) => {
        if (this.child === child) this.child = null;
        for (const resolveWaiting of this.waiting.values()) resolveWaiting(undefined);
        this.waiting.clear();
        if (!ready) reject(new Error(`the server exited with code ${code} before it was ready`));
        else if (!this.stopping) for (const listener of this.crashListeners) listener(`exit code ${code}`);
      });
      this.send({ type: 'start', config: this.config });
    });
  }

  localOwnerSession(): Promise<TokenResponse | null> {
    return this.ask((id) => ({ type: 'local-session', id }), null);
  }

  setupOwner(input: OwnerSetup): Promise<SetupResult> {
    const gone: SetupResult = { ok: false, error: { code: 'unavailable', message: 'The server is not running. Try again in a moment.' } };
    return this.ask((id) => ({ type: 'setup', id, input }), gone);
  }

  ownerRecoveryCode(): Promise<RecoveryCode | RecoveryRefusal | null> {
    return this.ask<RecoveryCode | RecoveryRefusal | null>((id) => ({ type: 'recovery-code', id }), null);
  }

  restoreSnapshots(input: RestoreRequest): Promise<BridgeResult<RestoreSnapshots>> {
    return this.ask((id) => ({ type: 'restore-snapshots', id, input }), GONE);
  }

  startRestore(input: RestoreRequest): Promise<BridgeResult<BackupRun>> {
    return this.ask((id) => ({ type: 'restore', id, input }), GONE);
  }

  stop(): Promise<void> {
    const child = this.child;
    if (!child) return Promise.resolve();
    this.stopping = true;
    return new Promise((resolve) => {
      // A server that does not finish closing in time is ended: its writes are durable anyway.
      const timer = setTimeout(() => child.kill(), STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.send({ type: 'stop' });
    });
  }

  onPending(listener: (device: PendingDevice) => void): void {
    this.pendingListeners.push(listener);
  }

  onSettled(listener: (sessionId: string) => void): void {
    this.settledListeners.push(listener);
  }

  onCrash(listener: (reason: string) => void): void {
    this.crashListeners.push(listener);
  }

  onBackupHealth(listener: (health: BackupHealth) => void): void {
    this.backupListeners.push(listener);
  }

  onRestarted(listener: (started: ServerStarted) => void): void {
    this.restartedListeners.push(listener);
  }

  /** One question to the server's process; `gone` when there is no process or it dies before answering. */
  private ask<T>(message: (id: number) => ToServer, gone: T): Promise<T> {
    if (!this.child) return Promise.resolve(gone);
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (answer) => resolve(answer === undefined ? gone : (answer as T)));
      this.send(message(id));
    });
  }

  private answer(id: number, value: unknown): void {
    this.waiting.get(id)?.(value);
    this.waiting.delete(id);
  }

  private send(message: ToServer): void {
    this.child?.postMessage(message);
  }
}
