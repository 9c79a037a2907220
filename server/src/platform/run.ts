import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Finds an executable on PATH (no shell involved). */
export function findExecutable(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** A command that failed: what it printed on stderr, and its exit code (null when it was killed). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null,
    options: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** True when a command failed because its program is not installed (execFile's ENOENT). */
export function commandMissing(error: unknown): boolean {
  return error instanceof CommandError && (error.cause as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Runs an OS command with an argument array (never a shell string) and a time limit. The
 * error says which command failed and what it printed.
 */
export function runCommand(command: string, args: string[], timeoutMs = 30_000): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        const detail = String(stderr || error.message)
          .trim()
          .slice(0, 500);
        const exitCode = typeof error.code === 'number' ? error.code : null;
        reject(new CommandError(`${command} ${args.join(' ')} failed: ${detail}`, String(stderr), exitCode, { cause: error }));
      } else {
        resolve(stdout);
      }
    });
  });
}
