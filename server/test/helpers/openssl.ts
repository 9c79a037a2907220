import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestContext } from 'node:test';
import { missingTool, skipBecause } from './skip.ts';

/** What openssl said of a chain: its verdict and its words. */
export interface OpensslVerdict {
  ok: boolean;
  output: string;
}

/**
 * `openssl verify -purpose <purpose>` of `leafPem` against `caPem` alone: an independent
 * verifier's word on what a phone would accept (purposes, Name Constraints). Null, with the
 * test skipped and one line said, where openssl is not installed (CI installs it).
 */
export function opensslVerify(ctx: TestContext, caPem: string, leafPem: string, purpose: 'sslserver' | 'smimesign'): OpensslVerdict | null {
  const missing = missingTool('openssl', 'openssl');
  if (missing) {
    skipBecause(ctx, missing);
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hearth-openssl-'));
  try {
    fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
    fs.writeFileSync(path.join(dir, 'leaf.pem'), leafPem);
    const run = spawnSync('openssl', ['verify', '-purpose', purpose, '-CAfile', path.join(dir, 'ca.pem'), path.join(dir, 'leaf.pem')], {
      encoding: 'utf8',
    });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
