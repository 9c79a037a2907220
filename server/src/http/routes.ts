import type { AnyRoute } from './route-def.ts';
import { accountRoutes } from './routes/account.ts';
import { adminRoutes } from './routes/admin.ts';
import { albumRoutes } from './routes/albums.ts';
import { authRoutes } from './routes/auth.ts';
import { davPasswordRoutes } from './routes/dav-passwords.ts';
import { backupRoutes } from './routes/backup.ts';
import { deviceRoutes } from './routes/devices.ts';
import { downloadRoutes } from './routes/downloads.ts';
import { driveRoutes } from './routes/drives.ts';
import { eventRoutes } from './routes/events.ts';
import { faceFindingRoutes } from './routes/face-finding.ts';
import { libraryRoutes } from './routes/libraries.ts';
import { mediaRoutes } from './routes/media.ts';
import { nodeRoutes } from './routes/nodes.ts';
import { notificationRoutes } from './routes/notifications.ts';
import { playbackRoutes } from './routes/playback.ts';
import { privateRoutes } from './routes/private.ts';
import { partnerRoutes } from './routes/partners.ts';
import { peopleRoutes } from './routes/people.ts';
import { photoEditRoutes } from './routes/photo-edits.ts';
import { publicLinkRoutes } from './routes/public-links.ts';
import { openApiRoute, serverRoutes } from './routes/server.ts';
import { httpsRoutes } from './routes/https.ts';
import { sharingRoutes } from './routes/sharing.ts';
import { uploadRoutes } from './routes/uploads.ts';

/**
 * The whole API, one line per area: each routes/<area>.ts holds its routes with their request
 * schemas and handlers. Paths are under /api/v1; this order is the OpenAPI document's.
 */
export const ROUTES: readonly AnyRoute[] = [
  ...serverRoutes,
  openApiRoute(() => ROUTES),
  ...httpsRoutes,
  ...authRoutes,
  ...accountRoutes,
  ...davPasswordRoutes,
  ...deviceRoutes,
  ...adminRoutes,
  ...nodeRoutes,
  ...privateRoutes,
  ...mediaRoutes,
  ...downloadRoutes,
  ...albumRoutes,
  ...photoEditRoutes,
  ...peopleRoutes,
  ...faceFindingRoutes,
  ...playbackRoutes,
  ...sharingRoutes,
  ...partnerRoutes,
  ...publicLinkRoutes,
  ...libraryRoutes,
  ...driveRoutes,
  ...backupRoutes,
  ...notificationRoutes,
  ...uploadRoutes,
  ...eventRoutes,
];
