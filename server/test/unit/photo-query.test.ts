/**
 * The search box reads dates as a family writes them ("2019", "July 2021", "christmas 2018" as
 * 24-26 December, "3rd August 2024", a month or a holiday of every year), and everything else
 * as words; it never throws, whatever is typed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parsePhotoQuery } from '../../src/services/photos/photo-query.ts';

const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
const range = (from: number, before: number) => ({ range: { from, before }, everyYear: null, words: [] });

describe('parsePhotoQuery', () => {
  test('a year is the whole year', () => {
    assert.deepEqual(parsePhotoQuery('2019'), range(day(2019, 1, 1), day(2020, 1, 1)));
    assert.deepEqual(parsePhotoQuery(' 1965 '), range(day(1965, 1, 1), day(1966, 1, 1)));
  });

  test('a month and a year, in any of the ways they are written, is that month', () => {
    const july = range(day(2021, 7, 1), day(2021, 8, 1));
    for (const q of ['July 2021', 'july 2021', 'Jul 2021', 'jul. 2021', '2021-07']) assert.deepEqual(parsePhotoQuery(q), july, q);
    assert.deepEqual(parsePhotoQuery('sept 2020'), range(day(2020, 9, 1), day(2020, 10, 1)));
    assert.deepEqual(parsePhotoQuery('December 2018'), range(day(2018, 12, 1), day(2019, 1, 1)));
  });

  test('a day is that day, however it is written', () => {
    const third = range(day(2024, 8, 3), day(2024, 8, 4));
    for (const q of ['3 August 2024', '3rd August 2024', 'August 3 2024', 'August 3rd, 2024', 'aug 3 2024', '2024-08-03']) {
      assert.deepEqual(parsePhotoQuery(q), third, q);
    }
    assert.deepEqual(parsePhotoQuery('31 December 2019'), range(day(2019, 12, 31), day(2020, 1, 1)));
    assert.deepEqual(parsePhotoQuery('29 February 2020'), range(day(2020, 2, 29), day(2020, 3, 1)));
  });

  test('christmas 2018 is 24 to 26 December; a holiday without a year is that holiday of every year', () => {
    assert.deepEqual(parsePhotoQuery('christmas 2018'), range(day(2018, 12, 24), day(2018, 12, 27)));
    assert.deepEqual(parsePhotoQuery('Xmas 2018'), range(day(2018, 12, 24), day(2018, 12, 27)));
    assert.deepEqual(parsePhotoQuery('christmas eve 2018'), range(day(2018, 12, 24), day(2018, 12, 25)));
    assert.deepEqual(parsePhotoQuery("new year's eve 2019"), range(day(2019, 12, 31), day(2020, 1, 1)));
    assert.deepEqual(parsePhotoQuery('new year’s day 2020'), range(day(2020, 1, 1), day(2020, 1, 2)));
    assert.deepEqual(parsePhotoQuery('christmas'), { range: null, everyYear: { from: '12-24', to: '12-26' }, words: [] });
    assert.deepEqual(parsePhotoQuery('halloween'), { range: null, everyYear: { from: '10-31', to: '10-31' }, words: [] });
  });

  test('a month without a year is that month of every year; a day and month, that day', () => {
    assert.deepEqual(parsePhotoQuery('july'), { range: null, everyYear: { from: '07-01', to: '07-31' }, words: [] });
    assert.deepEqual(parsePhotoQuery('3 august'), { range: null, everyYear: { from: '08-03', to: '08-03' }, words: [] });
  });

  test('words beside a date are words, folded; each word once', () => {
    assert.deepEqual(parsePhotoQuery('Lisbon 2024'), { ...range(day(2024, 1, 1), day(2025, 1, 1)), words: ['lisbon'] });
    assert.deepEqual(parsePhotoQuery('Zürich ZÜRICH beach'), { range: null, everyYear: null, words: ['zurich', 'beach'] });
    assert.deepEqual(parsePhotoQuery('PXL_2024 new york'), { range: null, everyYear: null, words: ['pxl_2024', 'new', 'york'] });
  });

  test('two dates at once find what lies in both: "2019 july 2019" is July 2019, "2018 2019" nothing', () => {
    assert.deepEqual(parsePhotoQuery('2019 july 2019'), range(day(2019, 7, 1), day(2019, 8, 1)));
    const none = parsePhotoQuery('2018 2019').range!;
    assert.equal(none.from, none.before);
  });

  test('what is not a real date is a word, never an error', () => {
    assert.deepEqual(parsePhotoQuery('31 February 2020').words, ['31', 'february', '2020']);
    assert.deepEqual(parsePhotoQuery('2020-13'), { range: null, everyYear: null, words: ['2020-13'] });
    assert.deepEqual(parsePhotoQuery('1850'), { range: null, everyYear: null, words: ['1850'] });
    assert.deepEqual(parsePhotoQuery('12345'), { range: null, everyYear: null, words: ['12345'] });
    assert.deepEqual(parsePhotoQuery('ma'), { range: null, everyYear: null, words: ['ma'] });
    assert.deepEqual(parsePhotoQuery('   '), { range: null, everyYear: null, words: [] });
    assert.deepEqual(parsePhotoQuery("%' OR 1=1 --").words, ["%'", 'or', '1=1', '--']);
  });
});
