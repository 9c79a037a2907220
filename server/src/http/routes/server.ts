import { HealthResponse, StatusResponse } from '../../contract/server-responses.ts';
import { openApiDocument } from '../openapi.ts';
import { ok, reply, route, type AnyRoute } from '../route-def.ts';

/** Also mounted at the root (app.ts), where liveness probes conventionally look. */
export const healthRoute = route({
  method: 'GET',
  path: '/healthz',
  tag: 'server',
  summary: 'Liveness and readiness (also served at /healthz)',
  auth: 'none',
  responses: { ...ok('Healthy', HealthResponse), 503: { description: 'A check failed', schema: HealthResponse } },
  handler: ({ services }) => {
    const health = services.status.health();
    return reply(health.status === 'ok' ? 200 : 503, health);
  },
});

export const serverRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/status',
    tag: 'server',
    summary: 'Server name, version and what a client must do first',
    auth: 'none',
    responses: ok('Status', StatusResponse),
    handler: ({ services, client }) => services.status.status(client),
  }),
  healthRoute,
];

/** The document of the table it sits in: routes.ts hands its table over, which this module cannot import. */
export function openApiRoute(table: () => readonly AnyRoute[]): AnyRoute {
  return route({
    method: 'GET',
    path: '/openapi.json',
    tag: 'server',
    summary: 'This document',
    auth: 'none',
    responses: ok('OpenAPI 3.1 document'),
    handler: () => openApiDocument(table()),
  });
}
