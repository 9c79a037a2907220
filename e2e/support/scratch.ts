import fs from 'node:fs/promises';
import { test } from '@playwright/test';

/**
 * A new empty folder for the files a test hands the browser (a camera roll, a file to upload),
 * inside the test's own output folder. Playwright empties that folder at the start of every run,
 * so repeated runs leave nothing behind; in the system's temp folder each run left 30 to 40 MB.
 */
export async function scratchFolder(name: string): Promise<string> {
  return fs.mkdtemp(test.info().outputPath(`${name}-`));
}
