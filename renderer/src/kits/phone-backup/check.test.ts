import { describe, expect, it } from 'vitest';
import { CHECK_BATCH, planBackup, type HashState } from './check.ts';
import { deletedLine, sendingLine, summaryOf } from './summary.ts';

const hex = (n: number) => n.toString(16).padStart(64, '0');
const file = (name: string) => new File(['x'], name);

describe('deciding what to send', () => {
  it('asks the server in batches of at most 1000 distinct hashes and sends only the absent ones', async () => {
    const count = 2 * CHECK_BATCH + 5;
    const files = Array.from({ length: count }, (_, i) => file(`IMG_${i}.JPG`));
    const hashes = files.map((_, i) => hex(i));
    const batches: number[] = [];
    const plan = await planBackup(files, hashes, async (asked) => {
      batches.push(asked.length);
      // The server knows all but every hundredth; the first of those was deleted before.
      return asked.map((h): HashState => (parseInt(h, 16) % 100 !== 0 ? 'present' : parseInt(h, 16) === 0 ? 'deleted' : 'absent'));
    });
    expect(batches).toEqual([CHECK_BATCH, CHECK_BATCH, 5]);
    expect(plan.toSend.map((f) => f.name)).toEqual(Array.from({ length: 20 }, (_, i) => `IMG_${(i + 1) * 100}.JPG`));
    expect(plan.deleted.map((f) => f.name)).toEqual(['IMG_0.JPG']);
    expect(plan.here).toBe(count - 21);
  });

  it('the same photo chosen twice is asked about once and sent once', async () => {
    const asked: string[][] = [];
    const plan = await planBackup([file('a.jpg'), file('a copy.jpg')], [hex(1), hex(1)], async (h) => (asked.push(h), ['absent']));
    expect(asked).toEqual([[hex(1)]]);
    expect(plan.toSend.map((f) => f.name)).toEqual(['a.jpg']);
    expect(plan.here).toBe(1);
  });

  it('a file that could not be read is counted, never sent, never asked about', async () => {
    const plan = await planBackup([file('gone.jpg')], [null], async () => {
      throw new Error('nothing should be asked');
    });
    expect(plan).toMatchObject({ unreadable: 1, here: 0, toSend: [], deleted: [] });
  });

  it('says it in plain words: "1,842 already here, 56 to send" and "3 photos you deleted before are skipped"', () => {
    const plan = {
      here: 1842,
      toSend: Array.from({ length: 56 }, () => file('n.jpg')),
      deleted: [file('d1'), file('d2'), file('d3')],
      unreadable: 0,
    };
    expect(summaryOf(plan)).toBe('1,842 already here, 56 to send');
    expect(deletedLine(plan, false)).toBe('3 photos you deleted before are skipped');
    expect(deletedLine(plan, true)).toBe('3 photos you deleted before are sent too');
    expect(summaryOf({ ...plan, toSend: [] })).toBe('1,842 already here, nothing new to send');
    expect(summaryOf(plan, true)).toBe('1,842 already here, 56 sent');
    expect(summaryOf({ ...plan, here: 0 }, true)).toBe('All 56 sent');
    expect(deletedLine({ ...plan, deleted: [] }, false)).toBeNull();
    // A first run: nothing here yet, and it does not say "0 already here".
    expect(summaryOf({ ...plan, here: 0 })).toBe('56 to send');
    // None could be read (the phone refused to read them): never "nothing new to send", which would say they are safe.
    const none = { here: 0, toSend: [], deleted: [], unreadable: 12 };
    expect(summaryOf(none)).toBe('None of these could be read on this device');
    expect(summaryOf({ ...none, unreadable: 1 })).toBe('This photo could not be read on this device');
  });
});

describe('the sending line', () => {
  it('says how far the run has come: "1 of 3 sent", "All 3 sent", and which were not sent', () => {
    expect(sendingLine([])).toBeNull();
    expect(sendingLine([{ status: 'done' }, { status: 'sending' }, { status: 'queued' }])).toBe('1 of 3 sent');
    expect(sendingLine([{ status: 'done' }, { status: 'done' }, { status: 'done' }])).toBe('All 3 sent');
    expect(sendingLine([{ status: 'done' }])).toBe('Sent');
    expect(sendingLine([{ status: 'done' }, { status: 'failed' }])).toBe('1 of 2 sent, 1 not sent (see Uploads)');
  });
});
