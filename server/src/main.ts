import { configFromEnv } from './config.ts';
import { startServer } from './index.ts';

/** Headless entry point: `npm start`. Configuration comes from the environment only. */
const server = await startServer(configFromEnv());
const host = server.config.host.includes(':') ? `[${server.config.host}]` : server.config.host;
process.stdout.write(`listening on http://${host}:${server.port}\n`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
