import { describe, expect, it } from 'vitest';
import type { UploadItem } from '../../kits/upload/index.ts';
import { progressOf, whenFinished } from './progress.ts';

function item(status: UploadItem['status'], error: string | null = null): UploadItem {
  return { key: status, name: 'a.jpg', size: 1, sent: 0, status, parentId: null, error, retryable: true, kind: 'photo', stalled: false };
}

describe('a save of shared files', () => {
  it('is saved only once every upload arrived, so the files leave the phone only then', () => {
    expect(progressOf([item('done'), item('sending')])).toEqual({ kind: 'sending' });
    expect(progressOf([item('done'), item('held')])).toEqual({ kind: 'sending' });
    expect(progressOf([item('offline')])).toEqual({ kind: 'sending' });
    expect(progressOf([item('done'), item('done')])).toEqual({ kind: 'saved' });
  });

  it('counts the folder already having them all as saved (nothing was queued)', () => {
    expect(progressOf([])).toEqual({ kind: 'saved' });
  });

  it('says how many did not arrive, and why, so the person can try again with the files still on the phone', () => {
    expect(progressOf([item('done'), item('failed', 'Hearth is full.'), item('cancelled')])).toEqual({
      kind: 'not-saved',
      count: 2,
      reason: 'Hearth is full.',
    });
  });
});

/** A queue as the save sees it: items it can change, and listeners told of each change. */
function fakeQueue(items: UploadItem[]) {
  const listeners = new Set<() => void>();
  const queue = {
    items,
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    state: () => ({ items: queue.items }),
    set(next: UploadItem[]) {
      queue.items = next;
      for (const listener of listeners) listener();
    },
    listening: () => listeners.size,
  };
  return queue;
}

const keyed = (key: string, status: UploadItem['status'], error: string | null = null): UploadItem => ({ ...item(status, error), key });

describe('waiting for a save to finish', () => {
  it('resolves saved once every upload of the save arrived, ignoring others in the queue, and stops listening', async () => {
    const queue = fakeQueue([keyed('a', 'sending'), keyed('b', 'queued'), keyed('other', 'failed', 'Not ours.')]);
    const finished = whenFinished(queue, new Set(['a', 'b']));
    queue.set([keyed('a', 'done'), keyed('b', 'sending'), keyed('other', 'failed', 'Not ours.')]);
    queue.set([keyed('a', 'done'), keyed('b', 'done'), keyed('other', 'failed', 'Not ours.')]);
    await expect(finished).resolves.toEqual({ kind: 'saved' });
    expect(queue.listening()).toBe(0);
  });

  it('still counts an upload that arrived and was then cleared from the panel as saved', async () => {
    const queue = fakeQueue([keyed('a', 'sending')]);
    const finished = whenFinished(queue, new Set(['a', 'b']));
    queue.set([keyed('a', 'done'), keyed('b', 'sending')]);
    queue.set([keyed('b', 'done')]);
    await expect(finished).resolves.toEqual({ kind: 'saved' });
  });

  it('never counts an upload taken away unfinished (signing out empties the queue) as saved', async () => {
    const queue = fakeQueue([keyed('a', 'sending')]);
    const finished = whenFinished(queue, new Set(['a']));
    queue.set([]);
    await expect(finished).resolves.toEqual({ kind: 'not-saved', count: 1, reason: null });
  });
});
