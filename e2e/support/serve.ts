/**
 * The real Hearth server for browser tests, in a process of its own: `node --import tsx
 * e2e/support/serve.ts '<config json>'`. Prints one line `ready <url>` once it listens on
 * 127.0.0.1, and closes cleanly on SIGTERM (its temp data dir is the caller's to remove).
 */
import { startServer } from '../../server/src/index.ts';

const config = JSON.parse(process.argv[2] ?? '{}');
const server = await startServer({ host: '127.0.0.1', port: 0, logLevel: 'error', passwordHashCost: 2 ** 12, ...config });
process.stdout.write(`ready ${server.url}\n`);
const stop = () => void server.close().then(() => process.exit(0), () => process.exit(1));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent test worker died: do not outlive it.
process.stdin.on('end', stop);
process.stdin.resume();
