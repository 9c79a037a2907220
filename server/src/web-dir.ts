import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the built web app lives: `renderer/dist` beside whichever copy of the server runs (the
 * sources under server/src, the bundle in dist/, or the same files inside the Electron app),
 * found by walking up from this module. It may not be built yet; the server starts anyway.
 */
export function findWebDir(from = path.dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'renderer'))) return path.join(dir, 'renderer', 'dist');
    if (path.dirname(dir) === dir) return null;
  }
}
