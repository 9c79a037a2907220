import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Files inside the app's asar archive are readable by Node but not by the OS: a program run
 * with execFile (ffmpeg) or a library the dynamic linker loads (libvips) must come from the
 * unpacked copy beside it (electron-builder.yml's asarUnpack).
 */
export function asarUnpacked(file: string): string {
  return file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
}

/** An ffmpeg shipped in an npm package (a fresh PC has none), its path outside the asar; null when none is installed. */
export function bundledFfmpeg(from: string): string | null {
  const require = createRequire(from);
  for (const name of ['@ffmpeg-installer/ffmpeg', 'ffmpeg-static']) {
    try {
      const found = require(name) as string | { path?: string };
      const file = typeof found === 'string' ? found : found.path;
      if (file) return asarUnpacked(file);
    } catch {
      // not installed
    }
  }
  return null;
}

/** The server's data under the app's user-data folder, unless DATA_DIR says otherwise. */
export function dataDirFor(userData: string, env: NodeJS.ProcessEnv): string {
  return env.DATA_DIR ? path.resolve(env.DATA_DIR) : path.join(userData, 'data');
}
