import { describe, expect, test } from 'vitest';
import { privacyWords, retentionWords } from './backupWords.ts';

describe('a backup card in words', () => {
  test('every card says whether the disk can be read by whoever holds it', () => {
    expect(privacyWords({ encrypted: true })).toBe('Encrypted');
    expect(privacyWords({ encrypted: false })).toBe('Not encrypted: anyone with this disk can read everything');
  });

  test('what is kept names the latest runs first, then days, weeks and months', () => {
    expect(retentionWords({ last: 5, daily: 7, weekly: 4, monthly: 12 })).toBe('5 latest, 7 daily, 4 weekly, 12 monthly copies');
    expect(retentionWords({ last: 1, daily: 0, weekly: 1, monthly: 0 })).toBe('1 latest, 0 daily, 1 weekly, 0 monthly copies');
  });
});
