import { describe, expect, test } from 'vitest';
import { selectionWords } from '../../kits/photos/index.ts';
import { countWords, removalQuestion, takenOutWords, takenRange } from './words.ts';

describe('takenRange', () => {
  test('one day, days of a month, and a year or more as months, in the zone the photos were taken in (UTC as stored)', () => {
    const day = Date.UTC(2024, 7, 3, 23, 30);
    expect(takenRange(day, day)).toBe(
      new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(day),
    );
    // Late in the evening of the 10th stays the 10th, wherever this device is.
    const range = takenRange(Date.UTC(2024, 7, 3, 9), Date.UTC(2024, 7, 10, 23, 59));
    expect(range).toContain('3');
    expect(range).toContain('10');
    expect(range).not.toContain('11');
    const long = takenRange(Date.UTC(2023, 7, 1), Date.UTC(2025, 0, 2));
    expect(long).toContain('2023');
    expect(long).toContain('2025');
    expect(long).not.toMatch(/\b1\b|\b2\b/);
  });

  test('an empty album has no dates', () => {
    expect(takenRange(null, null)).toBe('');
  });
});

describe('countWords and selectionWords', () => {
  test('say photos and videos as a person would', () => {
    expect(countWords(0, 0)).toBe('Empty');
    expect(countWords(1, 0)).toBe('1 photo');
    expect(countWords(12, 1)).toBe('12 photos, 1 video');
    expect(countWords(0, 2)).toBe('2 videos');
    expect(selectionWords([{ mime_type: 'image/jpeg' }])).toBe('this photo');
    expect(selectionWords([{ mime_type: 'video/mp4' }])).toBe('this video');
    expect(selectionWords([{ mime_type: 'image/jpeg' }, { mime_type: 'image/png' }])).toBe('2 photos');
    expect(selectionWords([{ mime_type: 'image/jpeg' }, { mime_type: 'video/mp4' }])).toBe('1 photo and 1 video');
  });
});

describe('removalQuestion', () => {
  test('says what leaves the album (them and what they added), that their files stay theirs, and for how long it can be undone', () => {
    expect(removalQuestion({ name: 'Dad', photos_added: 23 }, 10)).toBe(
      "Dad and the 23 photos they added will leave this album. Their photos stay in Dad's own files. You can undo this for 10 minutes.",
    );
    expect(removalQuestion({ name: 'Dad', photos_added: 1 }, 10)).toContain('Dad and the photo they added will leave');
    expect(removalQuestion({ name: 'Gran', photos_added: 0 }, 10)).toBe('Gran will leave this album. You can undo this for 10 minutes.');
    expect(takenOutWords({ name: 'Dad', photos_added: 23 })).toBe('Dad is out of the album, with the 23 photos they added.');
    expect(takenOutWords({ name: 'Gran', photos_added: 0 })).toBe('Gran is out of the album.');
  });
});
