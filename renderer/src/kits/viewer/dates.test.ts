import { describe, expect, it } from 'vitest';
import { describeTaken, formatLength, formatTakenFull, placeName, storyTitle, takenTime, zoneLabel } from './dates.ts';

// Tests run in New York (vitest.config.ts): none of these may move with the device's zone.
const lisbon = {
  taken_at: Date.UTC(2024, 7, 3, 18, 59, 12),
  taken_offset: 60,
  created_at: Date.UTC(2024, 8, 1),
  place: { town: 'Lisbon', country_code: 'PT' },
};

describe('a photo is told in the zone it was taken in', () => {
  it('protects the 6:59 PM bug: 19:59 at +01:00 shows 19:59 with its zone, never 18:59 (UTC) or 14:59 (New York)', () => {
    expect(takenTime(lisbon, 'en-GB')).toBe('19:59 GMT+1');
    expect(takenTime(lisbon, 'en-US')).toBe('7:59 PM GMT+1');
  });

  it('titles the viewer with the day there and the place: "Saturday 3 August 2024, Lisbon"', () => {
    expect(storyTitle(lisbon, 'en-GB')).toBe('Saturday 3 August 2024, Lisbon');
    expect(storyTitle({ ...lisbon, place: { country_code: 'PT' } }, 'en-GB')).toBe('Saturday 3 August 2024, Portugal');
    expect(storyTitle({ ...lisbon, place: undefined }, 'en-GB')).toBe('Saturday 3 August 2024');
    expect(storyTitle(lisbon, 'en-US')).toBe('Saturday August 3, 2024, Lisbon');
    expect(storyTitle(lisbon, 'fr')).toBe('samedi 3 août 2024, Lisbon');
  });

  it('keeps the day of the place: 00:30 on 1 January in Tokyo is 1 January, though UTC and New York still say 31 December', () => {
    const tokyo = { taken_at: Date.UTC(2019, 11, 31, 15, 30), taken_offset: 540, created_at: 0 };
    expect(storyTitle(tokyo, 'en-GB')).toBe('Wednesday 1 January 2020');
    expect(takenTime(tokyo, 'en-GB')).toBe('00:30 GMT+9');
    expect(describeTaken(tokyo, 'en-GB')).toBe('1 Jan 2020');
  });

  it('half-hour zones and zones west of GMT', () => {
    expect(zoneLabel(330)).toBe('GMT+5:30');
    expect(zoneLabel(-210)).toBe('GMT-3:30');
    expect(zoneLabel(-300)).toBe('GMT-5');
    expect(zoneLabel(0)).toBe('GMT');
    const newYork = { taken_at: Date.UTC(2018, 11, 25, 15, 0), taken_offset: -300, created_at: 0 };
    // The full line keeps the language's own punctuation.
    expect(formatTakenFull(newYork, 'en-GB')).toMatch(/^Tuesday,? 25 December 2018 at 10:00 GMT-5$/);
  });

  it('a camera that gave no zone is shown on its own clock, with no zone said', () => {
    const noZone = { taken_at: Date.UTC(2019, 2, 3, 12, 0), created_at: 0 };
    expect(takenTime(noZone, 'en-GB')).toBe('12:00');
    expect(storyTitle(noZone, 'en-GB')).toBe('Sunday 3 March 2019');
  });

  it('a file that does not say when it was taken has no title of its own, and is dated by its upload', () => {
    const screenshot = { created_at: Date.UTC(2024, 4, 3, 12) };
    expect(storyTitle(screenshot, 'en-GB')).toBeNull();
    expect(takenTime(screenshot, 'en-GB')).toBeNull();
    expect(describeTaken(screenshot, 'en-GB')).toBe('3 May 2024');
  });

  it('names the country in the reader’s language when there is no town', () => {
    expect(placeName({ place: { country_code: 'DE' } }, 'en-GB')).toBe('Germany');
    expect(placeName({ place: { country_code: 'DE' } }, 'fr')).toBe('Allemagne');
    expect(placeName({}, 'en-GB')).toBeNull();
  });
});

describe('a video’s length', () => {
  it('as players show it', () => {
    expect(formatLength(42_000)).toBe('0:42');
    expect(formatLength(2_000)).toBe('0:02');
    expect(formatLength(300)).toBe('0:01');
    expect(formatLength(725_000)).toBe('12:05');
    expect(formatLength(3_723_000)).toBe('1:02:03');
  });
});
