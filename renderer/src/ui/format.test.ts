import { describe, expect, test } from 'vitest';
import { formatCount, plural } from './format.ts';

describe('counts in words', () => {
  test('one and many', () => {
    expect(plural(1, 'photo')).toBe('1 photo');
    expect(plural(0, 'photo')).toBe('0 photos');
    expect(plural(3, 'person', 'people')).toBe('3 people');
  });

  test('a thousand and more are grouped as the locale writes them, smaller counts as they are', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(-12)).toBe('-12');
    expect(formatCount(1234)).toBe(new Intl.NumberFormat().format(1234));
    expect(plural(20000, 'photo')).toBe(`${new Intl.NumberFormat().format(20000)} photos`);
    expect(formatCount(2.5)).toBe(new Intl.NumberFormat().format(2.5));
  });
});
