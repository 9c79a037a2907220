import type { ContentIndexService } from '../services/files/content-index.ts';
import type { Job } from './job.ts';

/** How often the job looks for versions still without a SHA-256 (a library back online, a restored database). */
export const CONTENT_INDEX_EVERY_MS = 10 * 60_000;

/**
 * Versions stored by an older release get their SHA-256 at the first start of this one, in the
 * background: until then a phone's backup does not know they are here. When every version has
 * one, a run is a single indexed query.
 */
export function contentIndexJob(contentIndex: ContentIndexService, everyMs = CONTENT_INDEX_EVERY_MS): Job {
  return {
    name: 'content index',
    schedule: { everyMs, atStart: true },
    run: async (signal) => {
      await contentIndex.fill(signal);
    },
  };
}
