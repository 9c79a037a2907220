import { describe, expect, test } from 'vitest';
import { HEALTH_WORDS, healthOf, privacyWords, progressShare, progressWords, retentionWords, timeLeftWords } from './backupWords.ts';
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

  test('a backup under way says how much of how much, how many files of how many, and about how long is left', () => {
    const run = (fields: Partial<BackupRun>) =>
      ({
        kind: 'backup',
        files: 0,
        bytes: 0,
        bytes_copied: 0,
        files_total: null,
        bytes_total: null,
        bytes_to_copy: null,
        seconds_left: null,
        ...fields,
      }) as BackupRun;
    const GB = 1024 ** 3;
    expect(progressWords(run({}))).toBe('Looking at what is new since the last backup…');
    expect(progressShare(run({}))).toBeNull();
    const going = run({
      files: 340,
      files_total: 900,
      bytes_copied: 1.2 * GB,
      bytes_to_copy: 3.4 * GB,
      bytes_total: 3.5 * GB,
      seconds_left: 250,
    });
    expect(progressWords(going)).toBe('1.2 GB of 3.4 GB · 340 of 900 files · about 4 minutes left');
    expect(progressShare(going)).toBeCloseTo(1.2 / 3.4);
    // The first seconds: no guess at the time.
    expect(progressWords({ ...going, seconds_left: null })).toBe('1.2 GB of 3.4 GB · 340 of 900 files');
    // Nothing new to copy: done at once, not a division by zero.
    expect(progressShare(run({ files_total: 3, bytes_to_copy: 0, bytes_total: 10 }))).toBe(1);
    expect(progressWords(run({ kind: 'verify', files: 2, files_total: 5, bytes: 2048, bytes_total: 5 * 1024, seconds_left: 30 }))).toBe(
      'Checked 2 of 5 files · 2.0 KB of 5.0 KB · less than a minute left',
    );
  });

  test('the time left reads as a person says it', () => {
    expect(timeLeftWords(null)).toBe('');
    expect(timeLeftWords(0)).toBe('less than a minute left');
    expect(timeLeftWords(59)).toBe('less than a minute left');
    expect(timeLeftWords(80)).toBe('about a minute left');
    expect(timeLeftWords(250)).toBe('about 4 minutes left');
    expect(timeLeftWords(3600)).toBe('about an hour left');
    expect(timeLeftWords(80 * 60)).toBe('about an hour and 20 minutes left');
    expect(timeLeftWords(3 * 3600 + 600)).toBe('about 3 hours left');
  });
});
