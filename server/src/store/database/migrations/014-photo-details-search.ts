/**
 * 14: what a photo or video says about itself: the zone it was taken in, its place (position, and
 * town and country from the offline table), camera and exposure, a video's length, and the words
 * search finds it by. taken_sort becomes the time on the camera's clock where it was taken
 * (taken_at plus its zone), so months and dates are those the family lived. Photos already
 * processed are queued for a re-read of these alone (no thumbnails), after every upload's own job.
 */
export const migration = {
  version: 14,
  sql: `
  ALTER TABLE nodes ADD COLUMN taken_offset INTEGER;
  ALTER TABLE nodes ADD COLUMN duration_ms INTEGER;
  ALTER TABLE nodes ADD COLUMN latitude REAL;
  ALTER TABLE nodes ADD COLUMN longitude REAL;
  ALTER TABLE nodes ADD COLUMN place_town TEXT;
  ALTER TABLE nodes ADD COLUMN place_country TEXT;
  ALTER TABLE nodes ADD COLUMN camera_make TEXT;
  ALTER TABLE nodes ADD COLUMN camera_model TEXT;
  ALTER TABLE nodes ADD COLUMN lens TEXT;
  ALTER TABLE nodes ADD COLUMN f_number REAL;
  ALTER TABLE nodes ADD COLUMN exposure_time REAL;
  ALTER TABLE nodes ADD COLUMN iso INTEGER;
  ALTER TABLE nodes ADD COLUMN focal_length REAL;
  ALTER TABLE nodes ADD COLUMN media_search TEXT;
  ALTER TABLE media_jobs ADD COLUMN details_only INTEGER NOT NULL DEFAULT 0;
  DROP INDEX media_jobs_order;
  CREATE INDEX media_jobs_order ON media_jobs(details_only, enqueued_at, node_id);
  INSERT INTO media_jobs (node_id, version, enqueued_at, details_only)
    SELECT id, version, 0, 1 FROM nodes WHERE is_media = 1 AND type = 'file' AND media_state IN ('done', 'failed')
    ON CONFLICT (node_id) DO NOTHING;
  `,
};
