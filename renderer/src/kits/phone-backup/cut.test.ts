import { describe, expect, it } from 'vitest';
import type { Unsent } from '../upload/index.ts';
import { BACKUP_BATCH, stillToSend, stoppedLine } from './cut.ts';

const entry = (id: string, extra: Partial<Unsent> = {}): Unsent => ({
  id,
  account: 'anna',
  name: `IMG_${id}.jpg`,
  size: 10,
  lastModified: 1,
  parentId: 'device-folder',
  replaceNodeId: null,
  ...extra,
});

describe('a backup that stopped', () => {
  it('counts the photos it left to send, not other uploads and not refusals', () => {
    const left = [
      entry('1', { batch: BACKUP_BATCH }),
      entry('2', { batch: BACKUP_BATCH }),
      entry('3', { batch: BACKUP_BATCH, refused: 'That name can’t be used.' }),
      entry('4'),
    ];
    expect(stillToSend(left)).toBe(2);
    expect(stillToSend([])).toBe(0);
  });

  it('says it in one sentence', () => {
    expect(stoppedLine(12)).toBe('Your last backup stopped with 12 photos still to send');
    expect(stoppedLine(1)).toBe('Your last backup stopped with 1 photo still to send');
    expect(stoppedLine(1842)).toBe(`Your last backup stopped with ${(1842).toLocaleString()} photos still to send`);
  });
});
