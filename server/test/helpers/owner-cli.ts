import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run owner -- <args>` as npm does (scripts/owner.ts under tsx), with this Node. */
export function runOwnerCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/owner.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** The code in what `npm run owner -- reset` printed. */
export function codeIn(stdout: string): string {
  const match = /^ {4}([0-9A-Z]{5}(?:-[0-9A-Z]{1,5}){5})$/m.exec(stdout);
  if (!match) throw new Error(`no recovery code in:\n${stdout}`);
  return match[1]!;
}
