import { z } from 'zod';
import { FaceFinding, FaceSpeed } from '../../contract/face-finding-responses.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';

const FaceFindingPatch = z.object({
  paused: z.boolean().optional().describe('true stops face finding (its worker with it) until set false again; kept across restarts'),
  speed: FaceSpeed.optional().describe('The share of one CPU core it may use: gentle 25%, normal 50%, fast 100%'),
});

/** Face finding as the owner's console shows and steers it: how far, how fast, paused or not, how much CPU. */
export const faceFindingRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/admin/faces',
    tag: 'admin',
    summary: 'Face finding: photos looked at and waiting, the recent speed and time left, the pause and the CPU it may use',
    auth: 'admin',
    responses: ok('Face finding', FaceFinding),
    handler: ({ services, actor }) => services.faceFinding.view(actor),
  }),
  route({
    method: 'PATCH',
    path: '/admin/faces',
    tag: 'admin',
    summary: 'Pause or resume face finding, or change how much of the CPU it may use (kept across restarts)',
    auth: 'admin',
    body: FaceFindingPatch,
    responses: ok('Face finding', FaceFinding),
    handler: ({ services, actor, body }) => services.faceFinding.update(actor, body),
  }),
];
