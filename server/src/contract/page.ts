import { z } from 'zod';

/** A page of a list: `limit` items at most, and the cursor of the next page (null on the last). */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), next_cursor: z.string().nullable() });
}

/**
 * The type of `pageOf(X)` for a service that fills one: `Page<Node>` reads better than
 * `z.output<ReturnType<typeof pageOf<typeof Node>>>`, and tsc compares the two wherever a route
 * answers with a page (route-def.ts).
 */
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
