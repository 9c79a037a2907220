import { build } from 'esbuild';

/**
 * The server's entry points as `npm run build:server` bundles them (package.json): the server
 * and the workers it starts beside it. Tests and benchmarks run the servers they start from
 * this bundle, as `npm start` runs dist/server.js.
 */
/** The workers the server starts from files beside its own (each finds its file next to the bundle). */
export const WORKER_ENTRIES = {
  'media-worker': 'server/src/media/worker-main.ts',
  'face-worker': 'server/src/media/face-worker-main.ts',
  'content-copy-worker': 'server/src/store/archives/content-copy-worker.ts',
};

/** `entry` (the server, or a test's own host of it) bundled with the workers into `outdir`. */
export async function buildServerBundle(root, outdir, entry = { server: 'server/src/main.ts' }) {
  await build({
    entryPoints: { ...entry, ...WORKER_ENTRIES },
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
