import path from 'node:path';
import { build } from 'esbuild';
import type { Plugin } from 'vite';

/**
 * Builds the service worker (renderer/src/service-worker/sw.ts) into `/sw.js` at the root of the
 * build: one classic script, every module it imports inside it (a worker registered at a fixed
 * address cannot load the app's hashed chunks), so it shares the Share target's database code
 * with the app instead of a hand-kept copy. Its address never changes: the browser looks for a
 * new version there at each visit.
 */
export function serviceWorker(): Plugin {
  return {
    name: 'hearth-service-worker',
    apply: 'build',
    async generateBundle() {
      const result = await build({
        entryPoints: [path.join(import.meta.dirname, '..', 'src', 'service-worker', 'sw.ts')],
        bundle: true,
        format: 'iife',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        write: false,
        logLevel: 'warning',
      });
      this.emitFile({ type: 'asset', fileName: 'sw.js', source: result.outputFiles[0]!.text });
    },
  };
}
