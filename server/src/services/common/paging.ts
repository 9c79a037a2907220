import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export interface PageRequest {
  limit?: number | undefined;
  cursor?: string | undefined;
}

/** Cursors are opaque to clients: base64url of the last key of the previous page. */
export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined || cursor === '') return null;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  if (key === '' || Buffer.from(key, 'utf8').toString('base64url') !== cursor) {
    throw new AppError('invalid_cursor', undefined, { field: 'cursor' });
  }
  return key;
}

export function pageLimit(limit: number | undefined): number {
  return Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT);
}

/**
 * Runs `fetch` for one row more than the page holds: that extra row says whether a next
 * page exists without a count query.
 */
export function keysetPage<Row, Item>(
  request: PageRequest,
  fetch: (afterKey: string | null, limit: number) => Row[],
  keyOf: (row: Row) => string,
  toItem: (row: Row) => Item,
): Page<Item> {
  const limit = pageLimit(request.limit);
  const rows = fetch(decodeCursor(request.cursor), limit + 1);
  const more = rows.length > limit;
  const pageRows = more ? rows.slice(0, limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(toItem),
    next_cursor: more && last !== undefined ? Buffer.from(keyOf(last), 'utf8').toString('base64url') : null,
  };
}
