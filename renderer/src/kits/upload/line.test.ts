import { describe, expect, it } from 'vitest';
import { panelLine, timeLeft, type LineItem, type LineInput } from './line.ts';

const MB = 1024 * 1024;

function item(status: LineItem['status'], extra: Partial<LineItem> = {}): LineItem {
  return { status, size: 4 * MB, sent: status === 'done' ? 4 * MB : 0, kind: 'photo', retryable: true, stalled: false, ...extra };
}

function photos(done: number, sending: number, queued: number): LineItem[] {
  return [
    ...Array.from({ length: done }, () => item('done')),
    ...Array.from({ length: sending }, () => item('sending', { sent: 2 * MB })),
    ...Array.from({ length: queued }, () => item('queued')),
  ];
}

const input = (items: LineItem[], extra: Partial<LineInput> = {}): LineInput => ({
  items,
  alreadyHere: 0,
  offline: false,
  bytesPerSecond: 0,
  ...extra,
});

const shown = (line: { headline: string; details: string[] }) => [line.headline, ...line.details].join(' · ');

describe('the upload panel’s one line', () => {
  it('a batch under way says how many, how far and how long is left: "Uploading 56 photos · 12 of 56 · 3 min left"', () => {
    const items = photos(12, 3, 41);
    // 44 photos to go, 6 MB of the 3 sending already sent: 170 MB at 1 MB/s is about 3 minutes.
    const line = panelLine(input(items, { bytesPerSecond: 1 * MB }));
    expect(shown(line)).toBe('Uploading 56 photos · 12 of 56 · 3 min left');
    expect(line.settled).toBe(false);
    expect(line.progress).toBeCloseTo((12 * 4 + 3 * 2) / (56 * 4));
  });

  it('before any speed is known it leaves the time out rather than guess', () => {
    expect(shown(panelLine(input(photos(0, 3, 10))))).toBe('Uploading 13 photos · 0 of 13');
  });

  it('offline, or with every upload waiting to retry a dropped connection, it waits for the connection and shows no speed or time', () => {
    const items = photos(12, 3, 41);
    const offline = panelLine(input(items, { offline: true, bytesPerSecond: 1 * MB }));
    expect(shown(offline)).toBe('Waiting for the connection · 12 of 56');
    // The device still says it is online, but nothing answers: each sending upload is being retried.
    const stalled = items.map((one) => (one.status === 'sending' ? { ...one, stalled: true } : one));
    expect(shown(panelLine(input(stalled, { bytesPerSecond: 1 * MB })))).toBe('Waiting for the connection · 12 of 56');
    // Given up retrying, they wait for the connection to come back.
    const waiting = items.map((one) => (one.status === 'done' ? one : { ...one, status: 'offline' as const }));
    expect(shown(panelLine(input(waiting)))).toBe('Waiting for the connection · 12 of 56');
    // One upload still moving while another retries: the batch is still going.
    const mixed = [...items.slice(0, 13), { ...items[13]!, stalled: true }, ...items.slice(14)];
    expect(panelLine(input(mixed, { bytesPerSecond: MB })).headline).toBe('Uploading 56 photos');
  });

  it('failures show on the line while the rest goes on, and after it', () => {
    const items = [...photos(10, 1, 0), item('failed', { retryable: false }), item('failed')];
    expect(shown(panelLine(input(items)))).toBe('Uploading 13 photos · 10 of 13 · 2 not uploaded');
    const after = panelLine(input([...photos(11, 0, 0), item('failed', { retryable: false }), item('failed')]));
    expect(shown(after)).toBe('11 photos uploaded · 2 not uploaded');
    expect(after.settled).toBe(true);
    const none = panelLine(input([item('failed', { retryable: false, kind: 'file' })]));
    expect(shown(none)).toBe('1 file not uploaded');
    // Nothing arrived: no empty bar to look at.
    expect(none.progress).toBeNull();
  });

  it('a refused file does not hold the bar short of the end', () => {
    const line = panelLine(input([...photos(3, 0, 0), item('failed', { retryable: false, sent: 0 })]));
    expect(line.progress).toBe(1);
  });

  it('when everything arrived it says so, with what was already there, and can be closed', () => {
    const line = panelLine(input(photos(20, 0, 0), { alreadyHere: 3 }));
    expect(shown(line)).toBe('20 photos uploaded · 3 already here');
    expect(line.settled).toBe(true);
    expect(line.long).toBe(false);
    expect(shown(panelLine(input([], { alreadyHere: 4 })))).toBe('4 files already here');
  });

  it('names what is sent: photos, videos, photos and videos, or files', () => {
    const video = item('done', { kind: 'video' });
    expect(panelLine(input([video, video])).headline).toBe('2 videos uploaded');
    expect(panelLine(input([item('done'), video])).headline).toBe('2 photos and videos uploaded');
    expect(panelLine(input([item('done'), item('done', { kind: 'file' })])).headline).toBe('2 files uploaded');
  });

  it('one file says its percentage rather than "0 of 1"', () => {
    const line = panelLine(input([item('sending', { kind: 'video', size: 100, sent: 45 })], { bytesPerSecond: 10 }));
    expect(shown(line)).toBe('Uploading 1 video · 45% · less than a minute left');
  });

  it('waiting for space and paused are said as such, with no time left', () => {
    expect(shown(panelLine(input([item('done'), item('held'), item('held')], { bytesPerSecond: MB })))).toBe(
      'Waiting for space on Hearth · 1 of 3',
    );
    expect(shown(panelLine(input([item('done'), item('paused')])))).toBe('1 photo paused · 1 of 2');
  });

  it('a long batch (more than 10 files, or more than 50 MB left) asks to keep Hearth open; a few photos do not', () => {
    expect(panelLine(input(photos(0, 3, 8))).long).toBe(true);
    expect(panelLine(input(photos(0, 3, 2))).long).toBe(false);
    expect(panelLine(input([item('sending', { size: 200 * MB, kind: 'video' })])).long).toBe(true);
    expect(panelLine(input(photos(0, 3, 8), { offline: true })).long).toBe(true);
  });

  it('cancelled files are no part of the batch', () => {
    expect(shown(panelLine(input([...photos(2, 0, 0), item('cancelled')])))).toBe('2 photos uploaded');
  });
});

describe('time left, as a person says it', () => {
  it('rounds to minutes, says hours past an hour, and never counts seconds', () => {
    expect(timeLeft(20)).toBe('less than a minute left');
    expect(timeLeft(170)).toBe('3 min left');
    expect(timeLeft(3600)).toBe('1 h left');
    expect(timeLeft(3600 + 25 * 60)).toBe('1 h 25 min left');
    expect(timeLeft(Number.POSITIVE_INFINITY)).toBe('');
  });
});
