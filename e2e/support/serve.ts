/**
 * The real Hearth server for browser tests, in a process of its own: `node --import tsx
 * e2e/support/serve.ts '<config json>'`. Prints one line `ready <url>` once it listens on
 * 127.0.0.1, and closes cleanly on SIGTERM (its temp data dir is the caller's to remove).
 */
import { createInterface } from 'node:readline';
import { startServer } from '../../server/src/index.ts';

const config = JSON.parse(process.argv[2] ?? '{}');
// Face finding loads a model and takes a core for each photo: only the specs about faces turn it on.
// Media workers start with the first photo, as in the API tests: a worker costs 0.7 CPU-s to
// load, two per server, and many of the suite's servers are never given a photo.
const server = await startServer({
  host: '127.0.0.1',
  port: 0,
  logLevel: 'error',
  passwordHashCost: 2 ** 12,
  tailscale: 'off',
  findFaces: false,
  mediaWorkersAtStart: false,
  ...config,
});
process.stdout.write(`ready ${server.url}\n`);
const stop = () =>
  void server.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent test worker died: do not outlive it.
process.stdin.on('end', stop);
/*
 * The desktop app's doors into the server, which its main process reaches in-process (never
 * over HTTP), one line on stdin each, answered by one line on stdout:
 * - `local-session` answers `local-session <token response | null>`: the owner's session;
 * - `setup <json>` answers `setup <{ok, tokens} | {ok: false, error}>`: first-run setup from
 *   the window's bridge (a server started with hostedSetup takes it no other way);
 * - `setup-code` answers `setup-code <{code, url} | null>`: what `npm start` prints for the owner.
 * The e2e specs hand these to a page as the desktop window's bridge.
 */
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command = '', ...rest] = line.trim().split(' ');
  const answer = (value: unknown) => process.stdout.write(`${command} ${JSON.stringify(value)}\n`);
  if (command === 'local-session') {
    const open = (server as { localOwnerSession?: () => unknown }).localOwnerSession;
    answer(typeof open === 'function' ? open.call(server) : { error: 'this server has no localOwnerSession()' });
  } else if (command === 'setup') {
    server.setupOwner(JSON.parse(rest.join(' '))).then(
      (tokens) => answer({ ok: true, tokens }),
      (error: { toBody?: () => { error: unknown } }) =>
        answer({ ok: false, error: error.toBody?.().error ?? { code: 'internal', message: String(error) } }),
    );
  } else if (command === 'setup-code') answer(server.setup);
});
