/**
 * Child process for the fan-out benchmark, so the server does not share an event loop with
 * the 1,000 clients. Mode `hearth` runs the real server through `startServer` with the
 * production defaults; mode `reference` runs a bare `ws` WebSocketServer. Both publish one
 * event when the parent says so over IPC, and print nothing but errors.
 *
 *   node --import tsx bench/lib/ws-host.ts hearth <dataDir>
 *   node --import tsx bench/lib/ws-host.ts reference
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { SettingsView } from '../../server/src/contract/server-responses.ts';
import { startServer } from '../../server/src/index.ts';
import { DEFAULT_SETTINGS } from '../../server/src/services/server/settings.ts';

export type HostRequest = { type: 'publish'; seq: number } | { type: 'count' } | { type: 'stop' };
export type HostReply = { type: 'ready'; port: number } | { type: 'count'; connections: number };

const reply = (message: HostReply) => process.send!(message);
const settingsFor = (seq: number): SettingsView => ({ ...DEFAULT_SETTINGS, server_name: `fanout ${seq}`, link_reach: 'home_network' });

const [mode, dataDir] = process.argv.slice(2);

if (mode === 'hearth') {
  const server = await startServer({ host: '127.0.0.1', port: 0, dataDir: dataDir! });
  process.on('message', (message: HostRequest) => {
    if (message.type === 'publish')
      server.bus.publish('server.settings_changed', { settings: settingsFor(message.seq) }, { everyone: true });
    else if (message.type === 'count') reply({ type: 'count', connections: server.gateway.connectionCount });
    else void server.close().then(() => process.exit(0));
  });
  reply({ type: 'ready', port: server.port });
} else if (mode === 'reference') {
  const httpServer = http.createServer();
  const wss = new WebSocketServer({ server: httpServer });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  process.on('message', (message: HostRequest) => {
    if (message.type === 'publish') {
      const text = JSON.stringify({ type: 'server.settings_changed', at: Date.now(), payload: { settings: settingsFor(message.seq) } });
      for (const client of wss.clients) client.send(text);
    } else if (message.type === 'count') reply({ type: 'count', connections: wss.clients.size });
    else {
      for (const client of wss.clients) client.terminate();
      wss.close();
      httpServer.close(() => process.exit(0));
    }
  });
  reply({ type: 'ready', port: (httpServer.address() as AddressInfo).port });
} else {
  process.stderr.write(`unknown mode ${mode}\n`);
  process.exit(2);
}
