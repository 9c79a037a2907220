/**
 * 20: media that could not be processed for want of a tool (a video on a PC without ffmpeg, under
 * releases that looked only for the system's), processed again, poster and all, at the first start
 * that has the tool. Videos marked failed so far are all taken as such: a damaged one costs one
 * more try.
 */
export const migration = {
  version: 20,
  sql: `
  CREATE TABLE media_missing_tools (
    node_id TEXT PRIMARY KEY REFERENCES nodes(id) ON DELETE CASCADE,
    tool TEXT NOT NULL CHECK (tool IN ('ffmpeg'))
  ) STRICT, WITHOUT ROWID;
  INSERT INTO media_missing_tools (node_id, tool)
    SELECT id, 'ffmpeg' FROM nodes WHERE type = 'file' AND mime_type LIKE 'video/%' AND media_state = 'failed' AND has_thumbnail = 0;
  `,
};
