import type { TestContext } from 'node:test';
import { findExecutable } from '../../src/platform/run.ts';

const announced = new Set<string>();

/**
 * Skips a test that needs what this machine lacks, saying once what is missing and how to get
 * it. scripts/run-node-tests.mjs fails the run on any skip under CI=true: CI has everything, so
 * there a skip can only hide a broken test.
 */
export function skipBecause(ctx: TestContext, reason: string): void {
  if (!announced.has(reason)) {
    announced.add(reason);
    console.log(`# skipped: ${reason}`);
  }
  ctx.skip(reason);
}

/** Why a tool is unusable here ("mkfs.exfat is not installed (sudo apt install exfatprogs)"), or null. */
export function missingTool(tool: string, debianPackage: string): string | null {
  return findExecutable(tool) ? null : `${tool} is not installed (Debian: sudo apt install ${debianPackage})`;
}
