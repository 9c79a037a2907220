/** Drives the compiled desktop app running on the Electron double, over its control channel (tests and the appliance bench). */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
// @ts-expect-error: a plain ES module script without types
import { node24Path } from '../../../scripts/node24.mjs';

export interface Records {
  windows: { url: string | null; visible: boolean; destroyed: boolean; shows: number; webPreferences: Record<string, unknown> }[];
  trayImages: string[];
  tooltips: string[];
  menu: { label?: string; type?: string; checked?: boolean; enabled?: boolean }[][];
  notifications: { title: string; body: string }[];
  dialogs: { title: string; message: string; detail: string; buttons: string[] }[];
  openExternal: string[];
  clipboard: string[];
  utilityPids: number[];
  errorBoxes: { title: string; content: string }[];
}

export class RunningApp {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  readonly exited: Promise<number | null>;
  output = '';

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (c) => (this.output += c));
    child.stderr!.on('data', (c) => (this.output += c));
    child.on('message', (m: { id: number; result: unknown; error?: string }) => {
      const w = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      if (m.error) w?.reject(new Error(m.error));
      else w?.resolve(m.result);
    });
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  command<T = unknown>(cmd: string, extra: object = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // An app that died says what it printed, not only that its channel is closed.
      const gone = () =>
        new Error(`the app is gone (exit ${this.child.exitCode ?? this.child.signalCode}) before "${cmd}"; it printed:\n${this.output}`);
      if (!this.child.connected) return reject(gone());
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ id, cmd, ...extra }, (error) => {
        if (!error) return;
        this.waiting.delete(id);
        reject(gone());
      });
    });
  }

  records(): Promise<Records> {
    return this.command<Records>('records');
  }

  async waitFor<T>(what: string, probe: (r: Records) => T | undefined | null | false, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = probe(await this.records());
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${this.output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async origin(): Promise<string> {
    return this.waitFor('the window at the server', (r) => {
      const url = r.windows[0]?.url;
      return url && url.startsWith('http://127.0.0.1:') ? new URL(url).origin : null;
    });
  }
}

/** Starts the compiled desktop app (dist-electron/main.js) on Node 24 with the Electron double. */
export function launch(root: string, userData: string, dataDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): RunningApp {
  const child = spawn(
    (node24Path as () => string)(),
    ['--import', path.join(root, 'main/test/electron-double/register.mjs'), path.join(root, 'dist-electron/main.js'), ...args],
    {
      cwd: root,
      env: {
        ...process.env,
        HEARTH_DOUBLE_USERDATA: userData,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        PASSWORD_HASH_COST: '4096',
        MEDIA_WORKERS_AT_START: '0',
        // The desktop app announces itself by mDNS: never on this machine's real network.
        ANNOUNCE: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  return new RunningApp(child);
}
