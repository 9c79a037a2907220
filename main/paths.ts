import path from 'node:path';

/**
 * The server's data under the app's user-data folder, unless DATA_DIR says otherwise. (An
 * npm-packaged ffmpeg is run from app.asar.unpacked by the server itself: media/tools.ts.)
 */
export function dataDirFor(userData: string, env: NodeJS.ProcessEnv): string {
  return env.DATA_DIR ? path.resolve(env.DATA_DIR) : path.join(userData, 'data');
}
