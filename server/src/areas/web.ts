import http from 'node:http';
import { createApp } from '../http/app.ts';
import { answerParserErrors } from '../http/parser-errors.ts';
import type { Area, Started } from '../lifecycle.ts';
import { WsGateway } from '../ws/gateway.ts';
import type { Composed } from './compose.ts';

export interface Web extends Started {
  /** The HTTP server the front door hands its connections to (plain and TLS alike); it listens on no socket of its own. */
  server: http.Server;
  gateway: WsGateway;
}

/**
 * The app and the WebSocket gateway on one HTTP server. Stopped after the home network has closed
 * its listening sockets: the sockets still open (the gateway's, downloads under way) are closed
 * last, just before the database.
 */
export const web: Area<Composed, Web> = {
  name: 'web',
  start: ({ config, log, bus, services, homeNetwork }) => {
    const { hosts, trusted } = homeNetwork;
    const app = createApp(services, log, config.jsonBodyLimitBytes, hosts, config.webDir, trusted, config.downloads);
    const handle = app.callback();
    // Node's missing-Host answer is a bare 400: the app refuses it with the envelope instead.
    const server = http.createServer({ requireHostHeader: false }, handle);
    answerParserErrors(server, log);
    const gateway = new WsGateway(server, bus, services.sessions, config.ws, log, hosts, handle);
    return {
      server,
      gateway,
      stop: async () => {
        gateway.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      },
    };
  },
};
