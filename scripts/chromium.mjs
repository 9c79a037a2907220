/**
 * Whether the browser the tests drive can run here: present is not enough. Debian's
 * /usr/bin/chromium is a shell launcher that needs grep, sed and find on PATH; a machine (or a
 * user's PATH) without them has a Chromium that cannot start, which is as good as none.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || process.env.CHROME_PATH || '/usr/bin/chromium';

/** Why Chromium cannot run here, with how to get it, or null when it starts. */
export function chromiumProblem(executable = CHROMIUM_PATH) {
  if (!fs.existsSync(executable)) return `no Chromium at ${executable} (Debian: apt install chromium; or set CHROMIUM_PATH)`;
  const probe = spawnSync(executable, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (probe.error || probe.status !== 0) {
    const why =
      String(probe.error?.message ?? probe.stderr ?? '')
        .trim()
        .split('\n')[0]
        ?.slice(0, 160) || `exit ${probe.status}`;
    return `Chromium at ${executable} does not start here (${why}); its launcher needs grep, sed and find on PATH`;
  }
  return null;
}
