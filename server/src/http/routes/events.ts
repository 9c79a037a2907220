import { AppError } from '../../app-error.ts';
import { route, type AnyRoute } from '../route-def.ts';

/** Documented here; the WebSocket gateway (ws/) answers the upgrade before any route runs. */
export const eventRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/ws',
    tag: 'events',
    summary:
      "WebSocket upgrade for events (bearer header or ?access_token; full scope only). Up to 8 sockets per session and 24 per account: a newer one closes the oldest with code 4008; a revoked session's close with 4001. Each socket's queue keeps the newest 256 messages and 1 MiB. Messages are {type, at, payload}: every type (node.*, upload.progress, quota.updated, device.*, share.received, album.*, partner_share.*, library.changed, server.settings_changed, server.storage, session.revoked, backup.progress, backup.health, playback.queue, faces.progress), who hears it and its payload are in docs/api.md, Live events",
    auth: 'user',
    responses: {
      101: { description: 'Switching to WebSocket' },
      426: { description: 'Not an upgrade request, or a WebSocket version other than 13' },
    },
    errors: ['upgrade_required', 'invalid_handshake', 'websocket_version_unsupported', 'method_not_allowed'],
    handler: () => {
      throw new AppError('upgrade_required');
    },
  }),
];
