/**
 * `npm run dev`: the Hearth server from its sources, and the web app from Vite's dev server
 * with hot reload in front of it. Open the printed app address; the API and the WebSocket are
 * proxied to the server, so the app sees one origin as it does in production.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { configFromEnv } from '../server/src/config.ts';
import { startServer } from '../server/src/index.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const hearth = await startServer({ ...configFromEnv(), webDir: null });
const target = `http://127.0.0.1:${hearth.port}`;
const vite = await createServer({
  configFile: path.join(root, 'renderer', 'vite.config.ts'),
  server: {
    host: process.env.DEV_HOST ?? '0.0.0.0',
    port: Number(process.env.DEV_PORT ?? 5173),
    proxy: {
      '/api/v1/ws': { target, ws: true },
      '/api': { target },
      '/healthz': { target },
    },
  },
});
await vite.listen();
process.stdout.write(`server listening on ${target}\n`);
vite.printUrls();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([vite.close(), hearth.close()]).then(() => process.exit(0));
  });
}
