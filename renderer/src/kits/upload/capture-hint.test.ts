import { describe, expect, test } from 'vitest';
import { captureHint } from './capture-hint.ts';

const NOW = Date.UTC(2026, 10, 28, 12);
const file = (name: string, type: string, lastModified: number) => new File([new Uint8Array(4)], name, { type, lastModified });

describe('captureHint', () => {
  test("a photo's file date goes with it, with this device's zone", () => {
    const when = Date.UTC(2019, 4, 12, 10);
    const hint = captureHint(file('IMG_1.jpg', 'image/jpeg', when), NOW);
    expect(hint.taken_at).toBe(String(when));
    expect(hint.taken_offset).toBe(String(-new Date(when).getTimezoneOffset()));
    expect(captureHint(file('IMG_2.HEIC', '', when), NOW).taken_at).toBe(String(when));
  });

  test('none for a document, or for a file date of just now (the copy, not the photo)', () => {
    expect(captureHint(file('notes.pdf', 'application/pdf', Date.UTC(2019, 0, 1)), NOW)).toEqual({});
    expect(captureHint(file('IMG_3.jpg', 'image/jpeg', NOW - 1000), NOW)).toEqual({});
  });
});
