/**
 * The real Hearth server for browser tests, in a process of its own: `node --import tsx
 * e2e/support/serve.ts '<config json>'`. Prints one line `ready <url>` once it listens on
 * 127.0.0.1, and closes cleanly on SIGTERM (its temp data dir is the caller's to remove).
 */
import { createInterface } from 'node:readline';
import { startServer } from '../../server/src/index.ts';

const config = JSON.parse(process.argv[2] ?? '{}');
const server = await startServer({ host: '127.0.0.1', port: 0, logLevel: 'error', passwordHashCost: 2 ** 12, ...config });
process.stdout.write(`ready ${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent test worker died: do not outlive it.
process.stdin.on('end', stop);
/*
 * `local-session` on stdin answers `local-session <token response | null>` on stdout: the
 * owner's session as the desktop app's main process gets it, in-process (never over HTTP).
 * The e2e specs hand it to a page as the desktop window's bridge.
 */
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'local-session') return;
  const open = (server as { localOwnerSession?: () => unknown }).localOwnerSession;
  const tokens = typeof open === 'function' ? open.call(server) : { error: 'this server has no localOwnerSession()' };
  process.stdout.write(`local-session ${JSON.stringify(tokens)}\n`);
});
