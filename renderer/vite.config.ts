import path from 'node:path';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './build/precompress.ts';
import { serviceWorker } from './build/service-worker.ts';
import { preactForReact, zoomUnderPreact } from './build/preact-alias.ts';

/**
 * The web app. `npm run build` writes renderer/dist, which the server serves at `/`;
 * `npm run dev` runs this config's dev server in front of a live Hearth server (see
 * scripts/dev.ts), proxying the API and the WebSocket to it.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), zoomUnderPreact(), serviceWorker(), precompress()],
  resolve: { alias: preactForReact },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Phones from the last few years; keeps the first screen small.
    target: 'es2022',
    assetsInlineLimit: 0,
    sourcemap: false,
    reportCompressedSize: false,
    rolldownOptions: {
      // Two pages: the app, and the page of a shared link, which loads none of the app.
      input: { index: path.join(import.meta.dirname, 'index.html'), share: path.join(import.meta.dirname, 'share.html') },
      // React Router looks for React 19's useOptimistic and does without it where it is missing, as under Preact.
      onwarn(warning, warn) {
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('useOptimistic')) return;
        warn(warning);
      },
    },
  },
});
