import { configFromEnv } from './config.ts';
import { startServer } from './index.ts';
import { StartRefused } from './start-refused.ts';

/** Headless entry point: `npm start`. Configuration comes from the environment only. */
const server = await startServer(configFromEnv()).catch((error: unknown) => {
  // A refusal is a message for the owner, not a crash: no stack trace.
  if (!(error instanceof StartRefused)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
});
const host = server.config.host.includes(':') ? `[${server.config.host}]` : server.config.host;
process.stdout.write(`listening on http://${host}:${server.port}\n`);
// The one place the setup code is written: for the owner, beside where they started the server.
if (server.setup) {
  const local = ['0.0.0.0', '::', '', '127.0.0.1', '::1', 'localhost'].includes(server.config.host);
  const atThisPc = local ? ` (none is needed at http://localhost:${server.port}/ on this PC)` : '';
  process.stdout.write(`Finish setup at ${server.setup.url} with setup code ${server.setup.code}${atThisPc}\n`);
}

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
