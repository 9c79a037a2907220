import { build } from 'esbuild';

/**
 * The server's entry points as `npm run build:server` bundles them (package.json): the server
 * and the workers it starts beside it. Tests and benchmarks run the servers they start from
 * this bundle, as `npm start` runs dist/server.js.
 */
export const SERVER_ENTRIES = {
  server: 'server/src/main.ts',
  'media-worker': 'server/src/media/worker-main.ts',
  'face-worker': 'server/src/media/face-worker-main.ts',
  'content-copy-worker': 'server/src/store/archives/content-copy-worker.ts',
};

export async function buildServerBundle(root, outdir) {
  await build({
    entryPoints: SERVER_ENTRIES,
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    target: 'node20',
    sourcemap: true,
    outdir,
    logLevel: 'warning',
  });
}
