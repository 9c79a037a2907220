import { describe, expect, test } from 'vitest';
import { faceSpeedWords, faceStateWords, faceTimeLeftWords, facesDoneWords } from './faceWords.ts';
import type { FaceFinding } from './queries.ts';

const base: FaceFinding = {
  available: true,
  paused: false,
  speed: 'normal',
  state: 'finding',
  total: 10_000,
  done: 2_340,
  waiting: 7_660,
  photos_per_minute: 50.4,
  seconds_left: 9_120,
  last_photo: null,
};

describe('face finding in a parent’s words', () => {
  test('how far, how fast and how long, as the owner reads them', () => {
    expect(facesDoneWords(base)).toBe('2,340 of 10,000 photos looked at');
    expect(faceSpeedWords(base)).toBe('About 50 photos a minute');
    expect(faceTimeLeftWords(base)).toBe('About 2 h 32 min left');
  });

  test('slower than one a minute is said per hour, and an unmeasured speed says nothing', () => {
    expect(faceSpeedWords({ ...base, photos_per_minute: 0.5 })).toBe('About 30 photos an hour');
    expect(faceSpeedWords({ ...base, photos_per_minute: null })).toBeNull();
    expect(faceTimeLeftWords({ ...base, seconds_left: null })).toBeNull();
  });

  test('paused says how many wait; done and empty say so', () => {
    expect(faceStateWords({ ...base, state: 'paused', paused: true, waiting: 1 })).toBe(
      'Paused. 1 photo waits until you switch it back on.',
    );
    expect(faceStateWords({ ...base, state: 'done', waiting: 0 })).toMatch(/^Every photo has been looked at/);
    expect(faceStateWords({ ...base, state: 'done', total: 0, done: 0, waiting: 0 })).toBe('No photos to look at yet.');
    expect(facesDoneWords({ ...base, total: 1, done: 0 })).toBe('0 of 1 photo looked at');
  });
});
