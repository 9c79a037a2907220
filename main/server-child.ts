/**
 * The server inside Electron's utility process: startServer, as `npm start` runs it, driven by
 * main over the parentPort. A crash here ends this process only; the tray stays and restarts it.
 */
import { startServer, type RunningServer } from '../server/src/index.ts';
import type { FromServer, ToServer } from './host-protocol.ts';

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
  } else if (message.type === 'stop') void stop();
});

async function start(config: Extract<ToServer, { type: 'start' }>['config']): Promise<void> {
  try {
    server = await startServer(config);
    server.bus.subscribe(({ message }) => {
      if (message.type === 'device.pending') {
        const p = message.payload as { session_id: string; username: string; device_name: string | null };
        send({ type: 'pending', device: { session_id: p.session_id, username: p.username, device_name: p.device_name } });
      } else if (message.type === 'device.approved' || message.type === 'device.denied') {
        send({ type: 'settled', sessionId: (message.payload as { session_id: string }).session_id });
      }
    });
    const status = (await (await fetch(`${server.url}/api/v1/status`)).json()) as { setup_required: boolean };
    send({ type: 'ready', url: server.url, port: server.port, setupRequired: status.setup_required });
  } catch (error) {
    send({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  }
}

async function stop(): Promise<void> {
  await server?.close();
  send({ type: 'stopped' });
  process.exit(0);
}
