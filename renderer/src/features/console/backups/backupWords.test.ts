import { describe, expect, test } from 'vitest';
import { HEALTH_WORDS, healthOf, privacyWords, retentionWords } from './backupWords.ts';
import type { BackupRun, Destination } from './queries.ts';

describe('a backup card in words', () => {
  test('every card says whether the disk can be read by whoever holds it', () => {
    expect(privacyWords({ encrypted: true })).toBe('Encrypted');
    expect(privacyWords({ encrypted: false })).toBe('Not encrypted: anyone with this disk can read everything');
  });

  test('what is kept names the latest runs first, then days, weeks and months', () => {
    expect(retentionWords({ last: 5, daily: 7, weekly: 4, monthly: 12 })).toBe('5 latest, 7 daily, 4 weekly, 12 monthly copies');
    expect(retentionWords({ last: 1, daily: 0, weekly: 1, monthly: 0 })).toBe('1 latest, 0 daily, 1 weekly, 0 monthly copies');
  });

  test('a check under way reads "Checking…", never "Backing up now"', () => {
    const destination = { id: 'd1', last_run: null, last_success_at: Date.now() } as unknown as Destination;
    const run = (kind: BackupRun['kind']) => ({ destination_id: 'd1', kind }) as unknown as BackupRun;
    expect(HEALTH_WORDS[healthOf(destination, run('verify'))]).toBe('Checking…');
    expect(HEALTH_WORDS[healthOf(destination, run('backup'))]).toBe('Backing up now');
    expect(HEALTH_WORDS[healthOf(destination, null)]).toBe('Backed up');
  });
});
