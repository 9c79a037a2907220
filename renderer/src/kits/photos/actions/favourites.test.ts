import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, test } from 'vitest';
import type { Node } from '../../../api/types.ts';
import { markStarred } from './favourites.ts';

const node = (id: string, starred = false) => ({ id, starred, name: `${id}.jpg` }) as Node;

describe('a favourite shows at once wherever the photo is listed', () => {
  test('every loaded page of every list gets the new mark; lists without the photo keep their very objects (nothing redraws)', () => {
    const client = new QueryClient();
    const month = { pages: [{ items: [node('a'), node('b')], next_cursor: null }], pageParams: [undefined] };
    const album = {
      pages: [
        { items: [node('b'), node('c')], next_cursor: 'x' },
        { items: [node('d')], next_cursor: null },
      ],
      pageParams: [],
    };
    const other = { pages: [{ items: [node('z')], next_cursor: null }], pageParams: [] };
    const flat = { items: [node('b')], next_cursor: null };
    const settings = { trash_retention_days: 30 };
    client.setQueryData(['gallery', 'month', '2024-08'], month);
    client.setQueryData(['albums', 'items', 'x'], album);
    client.setQueryData(['gallery', 'month', '2024-07'], other);
    client.setQueryData(['nodes', 'list'], flat);
    client.setQueryData(['settings'], settings);

    markStarred(client, new Set(['b']), true);

    const starredIn = (key: unknown[]) =>
      (client.getQueryData<{ pages: { items: Node[] }[] }>(key)?.pages ?? [])
        .flatMap((p) => p.items)
        .filter((n) => n.starred)
        .map((n) => n.id);
    expect(starredIn(['gallery', 'month', '2024-08'])).toEqual(['b']);
    expect(starredIn(['albums', 'items', 'x'])).toEqual(['b']);
    expect(client.getQueryData<{ items: Node[] }>(['nodes', 'list'])!.items[0]!.starred).toBe(true);
    expect(client.getQueryData(['gallery', 'month', '2024-07'])).toBe(other);
    expect(client.getQueryData(['settings'])).toBe(settings);
    // The untouched page of the album is the same object.
    expect(client.getQueryData<typeof album>(['albums', 'items', 'x'])!.pages[1]).toBe(album.pages[1]);

    markStarred(client, new Set(['b']), false);
    expect(starredIn(['gallery', 'month', '2024-08'])).toEqual([]);
  });

  test('a list being fetched as the mark is made (asked for before it) is asked again, so its answer cannot take the mark away', async () => {
    const client = new QueryClient();
    let answers = 0;
    // The refresh on its way was read before the star (not starred); the next one after it.
    const fetchMonth = () =>
      new Promise<{ items: Node[]; next_cursor: null }>((resolve) => {
        answers += 1;
        const starred = answers > 1;
        setTimeout(() => resolve({ items: [node('b', starred)], next_cursor: null }), 20);
      });
    // On screen: the month is loaded and watched, as Photos watches it, and a live refresh of it
    // (after a move, say) is on its way.
    client.setQueryData(['gallery', 'month', '2024-08'], { items: [node('b')], next_cursor: null });
    const onScreen = new QueryObserver(client, { queryKey: ['gallery', 'month', '2024-08'], queryFn: fetchMonth });
    const stop = onScreen.subscribe(() => {});
    await new Promise((resolve) => setTimeout(resolve, 5));
    markStarred(client, new Set(['b']), true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    stop();
    expect(answers).toBe(2);
    expect(client.getQueryData<{ items: Node[] }>(['gallery', 'month', '2024-08'])!.items[0]!.starred).toBe(true);
  });
});
