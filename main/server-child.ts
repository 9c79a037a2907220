/**
 * The server inside Electron's utility process: startServer, as `npm start` runs it, driven by
 * main over the parentPort. A crash here ends this process only; the tray stays and restarts it.
 */
import { AppError } from '../server/src/app-error.ts';
import type { BackupHealth } from '../server/src/contract/backup-responses.ts';
import { startServer, type RunningServer } from '../server/src/index.ts';
import type { FromServer, ToServer } from './host-protocol.ts';
import type { BridgeResult, OwnerSetup, RecoveryRefusal, SetupResult } from './ports.ts';

const port = process.parentPort;
let server: RunningServer | null = null;
const send = (message: FromServer) => port.postMessage(message);

port.on('message', (event) => {
  const message = event.data as ToServer;
  if (message.type === 'start') void start(message.config);
  else if (message.type === 'local-session') {
    try {
      send({ type: 'local-session', id: message.id, tokens: server?.localOwnerSession() ?? null });
    } catch (error) {
      send({ type: 'local-session', id: message.id, tokens: null, error: String(error) });
    }
  } else if (message.type === 'setup') {
    void setup(message.input).then((result) => send({ type: 'setup', id: message.id, result }));
  } else if (message.type === 'recovery-code') {
    let code = null;
    let refused: RecoveryRefusal['refused'] | undefined;
    try {
      code = server?.ownerRecoveryCode() ?? null;
    } catch (error) {
      // A disk that would not keep the code is said as such (the tray tells the owner to free
      // space); anything else is answered as "no code".
      if (error instanceof AppError && (error.code === 'storage_full' || error.code === 'storage_read_only')) refused = error.code;
    }
    send({ type: 'recovery-code', id: message.id, code, ...(refused && { refused }) });
  } else if (message.type === 'restore-snapshots') {
    void answered(() => server!.restoreSnapshots(message.input)).then((result) =>
      send({ type: 'restore-snapshots', id: message.id, result }),
    );
  } else if (message.type === 'restore') {
    void answered(() => server!.startRestore(message.input)).then((result) => send({ type: 'restore', id: message.id, result }));
  } else if (message.type === 'stop') void stop();
});

/** A call from the window's bridge, answered as the API would answer it: the value, or the error envelope's content. */
async function answered<T>(call: () => Promise<T>): Promise<BridgeResult<T>> {
  if (!server) return { ok: false, error: { code: 'unavailable', message: 'The server is not ready.' } };
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toBody().error };
    return { ok: false, error: { code: 'internal', message: 'Something went wrong on the server.' } };
  }
}

/** The window's setup form, answered as the API would answer it: the session, or the error envelope's content. */
async function setup(input: OwnerSetup): Promise<SetupResult> {
  if (!server) return { ok: false, error: { code: 'unavailable', message: 'The server is not ready.' } };
  try {
    return { ok: true, tokens: await server.setupOwner(input) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.toBody().error };
    return { ok: false, error: { code: 'internal', message: 'Something went wrong on the server.' } };
  }
}

async function start(config: Extract<ToServer, { type: 'start' }>['config']): Promise<void> {
  try {
    server = await startServer(config);
    const running = server;
    // Through the handle, not its bus: after a restore the server starts again with a new bus,
    // and main must go on hearing of waiting devices and backup health.
    running.subscribe(({ message }) => {
      if (message.type === 'device.pending') {
        const p = message.payload as { session_id: string; username: string; device_name: string | null };
        send({ type: 'pending', device: { session_id: p.session_id, username: p.username, device_name: p.device_name } });
      } else if (message.type === 'device.approved' || message.type === 'device.denied') {
        send({ type: 'settled', sessionId: (message.payload as { session_id: string }).session_id });
      } else if (message.type === 'backup.health') {
        send({ type: 'backup-health', health: (message.payload as { health: BackupHealth }).health });
      }
    });
    running.onRestarted((error) => {
      // Nothing serves now: this process ends, and main starts it again, which opens the restore.
      if (error) return process.exit(1);
      void setupRequired(running).then(
        (required) => {
          send({ type: 'restarted', url: running.url, port: running.port, setupRequired: required });
          send({ type: 'backup-health', health: running.backupHealth() });
        },
        () => process.exit(1),
      );
    });
    send({ type: 'ready', url: server.url, port: server.port, setupRequired: await setupRequired(running) });
    send({ type: 'backup-health', health: server.backupHealth() });
  } catch (error) {
    send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

async function setupRequired(running: RunningServer): Promise<boolean> {
  const status = (await (await fetch(`${running.url}/api/v1/status`)).json()) as { setup_required: boolean };
  return status.setup_required;
}

async function stop(): Promise<void> {
  await server?.close();
  send({ type: 'stopped' });
  process.exit(0);
}
