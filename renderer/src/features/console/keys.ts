/**
 * One key factory for the console's own server state, read by its sections' queries.ts and
 * refreshed by useConsoleEvents. The waiting devices and the settings are the app's
 * (api/queries.ts): the badge on Manage, sharing and the gallery read them too.
 */
export const consoleKeys = {
  all: ['console'] as const,
  sessions: ['console', 'sessions'] as const,
  users: ['console', 'users'] as const,
  invites: ['console', 'invites'] as const,
  libraries: ['console', 'libraries'] as const,
  drives: ['console', 'drives'] as const,
  /** The playback copies' queue (Storage); playback.queue events carry it whole. */
  playback: ['console', 'playback-copies'] as const,
  /** Face finding (Storage); faces.progress events carry it whole. */
  faces: ['console', 'face-finding'] as const,
  // Not under `drives`: refreshing the list must not read a drive's contents again (a look may mount it).
  drive: (id: string) => ['console', 'drive-contents', id] as const,
  status: ['console', 'status'] as const,
  network: ['console', 'network'] as const,
  /** Hearth's certificate authority (the Connect page). */
  https: ['console', 'https'] as const,
  backups: ['console', 'backups'] as const,
  snapshots: (destinationId: string) => ['console', 'backups', 'snapshots', destinationId] as const,
  /** Not under backups: the key never changes, and a run's events must not fetch it again. */
  backupKit: ['console', 'backup-kit'] as const,
};
