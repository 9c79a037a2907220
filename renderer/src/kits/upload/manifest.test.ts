import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStorage } from '../../testing/memory-storage.ts';
import { manifest, type Unsent } from './manifest.ts';

const file = (name: string, size: number, lastModified = 1_700_000_000_000) => new File([new Uint8Array(size)], name, { lastModified });

function unsent(id: string, account: string, name: string, size: number, extra: Partial<Unsent> = {}): Unsent {
  return { id, account, name, size, lastModified: 1_700_000_000_000, parentId: null, replaceNodeId: null, ...extra };
}

describe('what this browser remembers of the files it was sending', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage());
    return () => vi.unstubAllGlobals();
  });

  it('a file chosen again after a reload continues its upload: same account, name, size and date', () => {
    manifest.add(unsent('u1', 'anna', 'Beach.jpg', 10, { as: 'Beach short.jpg', parentId: 'f1' }));
    expect(manifest.match('anna', file('Beach.jpg', 10))).toMatchObject({ id: 'u1', as: 'Beach short.jpg', parentId: 'f1' });
    expect(manifest.match('ben', file('Beach.jpg', 10))).toBeUndefined();
    expect(manifest.match('anna', file('Beach.jpg', 11))).toBeUndefined();
    expect(manifest.match('anna', file('Beach.jpg', 10, 1))).toBeUndefined();
    expect(manifest.match('anna', file('beach.jpg', 10))).toBeUndefined();
  });

  it('a file the server refused for good is reported, never continued; chosen again, its refusal is forgotten', () => {
    manifest.add(unsent('u1', 'anna', 'Huge.mov', 10));
    manifest.refuse('u1', 'There is not enough storage left in this account.');
    expect(manifest.forAccount('anna')).toEqual([
      expect.objectContaining({ id: 'u1', refused: 'There is not enough storage left in this account.' }),
    ]);
    expect(manifest.match('anna', file('Huge.mov', 10))).toBeUndefined();
    // Another account's refusal of a file of the same name stays.
    manifest.add(unsent('u2', 'ben', 'Huge.mov', 10, { refused: 'No.' }));
    manifest.forgetRefused('anna', [file('Huge.mov', 10)]);
    expect(manifest.forAccount('anna')).toEqual([]);
    expect(manifest.forAccount('ben')).toHaveLength(1);
  });

  it('an entry added again replaces itself; removing or signing out forgets only what it names', () => {
    manifest.add(unsent('u1', 'anna', 'a.jpg', 1));
    manifest.add(unsent('u1', 'anna', 'a.jpg', 1, { parentId: 'f2' }));
    manifest.add(unsent('u2', 'anna', 'b.jpg', 2));
    manifest.add(unsent('u3', 'ben', 'c.jpg', 3));
    expect(manifest.forAccount('anna').map((u) => [u.id, u.parentId])).toEqual([
      ['u1', 'f2'],
      ['u2', null],
    ]);
    manifest.remove('u2');
    expect(manifest.forAccount('anna').map((u) => u.id)).toEqual(['u1']);
    manifest.forget('anna');
    expect(manifest.forAccount('anna')).toEqual([]);
    expect(manifest.forAccount('ben').map((u) => u.id)).toEqual(['u3']);
    manifest.forget('ben');
    // Nothing left: the key itself goes.
    expect(localStorage.length).toBe(0);
  });

  it('a refusal is handed over once to be told, and is gone from the next page load', () => {
    manifest.add(unsent('u1', 'anna', 'Huge.mov', 10, { refused: 'Not enough space left.' }));
    manifest.add(unsent('u2', 'anna', 'Beach.jpg', 10));
    manifest.add(unsent('u3', 'ben', 'Other.mov', 10, { refused: 'No.' }));
    expect(manifest.takeRefused('anna').map((u) => u.id)).toEqual(['u1']);
    expect(manifest.takeRefused('anna')).toEqual([]);
    expect(manifest.forAccount('anna').map((u) => u.id)).toEqual(['u2']);
    expect(manifest.forAccount('ben').map((u) => u.id)).toEqual(['u3']);
  });

  it('a batch chosen at once is one write; entries keep the batch that queued them', () => {
    const setItem = vi.spyOn(localStorage, 'setItem');
    manifest.addAll(Array.from({ length: 500 }, (_, i) => unsent(`u${i}`, 'anna', `IMG_${i}.jpg`, i, { batch: 'phone-backup' })));
    expect(setItem).toHaveBeenCalledTimes(1);
    expect(manifest.forAccount('anna')).toHaveLength(500);
    expect(manifest.forAccount('anna')[0]!.batch).toBe('phone-backup');
  });

  it('a new run of a cut backup keeps, of what the last one left, only the files it still has to send', () => {
    const photo = (name: string) => new File([new Uint8Array(10)], name, { lastModified: 1_700_000_000_000 });
    manifest.add(unsent('a', 'anna', 'IMG_1.jpg', 10, { batch: 'phone-backup' }));
    manifest.add(unsent('b', 'anna', 'IMG_2.jpg', 10, { batch: 'phone-backup' }));
    manifest.add(unsent('c', 'anna', 'IMG_3.jpg', 10, { batch: 'phone-backup' }));
    manifest.add(unsent('d', 'anna', 'IMG_4.jpg', 10, { batch: 'phone-backup', refused: 'That name can’t be used.' }));
    manifest.add(unsent('e', 'anna', 'Letter.pdf', 10));
    manifest.add(unsent('f', 'ben', 'IMG_1.jpg', 10, { batch: 'phone-backup' }));
    // IMG_1 arrived before the tab closed; IMG_2 is still missing; IMG_3 is being sent by this page.
    manifest.keepOnly('anna', 'phone-backup', [photo('IMG_2.jpg')], new Set(['c']));
    expect(manifest.forAccount('anna').map((u) => u.id)).toEqual(['b', 'c', 'd', 'e']);
    expect(manifest.forAccount('ben').map((u) => u.id)).toEqual(['f']);
  });

  it('a damaged record reads as nothing remembered, not as an error', () => {
    localStorage.setItem('hearth.unsent', '{not json');
    expect(manifest.forAccount('anna')).toEqual([]);
    manifest.add(unsent('u1', 'anna', 'a.jpg', 1));
    expect(manifest.forAccount('anna').map((u) => u.id)).toEqual(['u1']);
  });
});
