import { z } from 'zod';
import { pageOf } from '../../contract/page.ts';
import { PartnerShare, PartnerSince } from '../../contract/partners-responses.ts';
import { none, reply, ok, route, type AnyRoute } from '../route-def.ts';

const PartnerShareBody = z.object({
  user_id: z.string().min(1).max(100).describe('The family member who will see them'),
  since: PartnerSince.nullish().describe('The first day shared (YYYY-MM-DD); omitted or null: all of them, whenever taken'),
});

const PartnerParams = z.object({ userId: z.string().min(1).max(100) });

/** Partner sharing: an account's photos and videos shown in another's Photos, from a day on. */
export const partnerRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/partner-shares',
    tag: 'partners',
    summary:
      "The caller's partner shares: those it gives (owner is the caller: its photos shown to partner) and those it receives (partner is the caller), first started first. A family has a handful: one page",
    auth: 'user',
    responses: ok('Partner shares', pageOf(PartnerShare)),
    handler: ({ services, actor }) => ({ items: services.partners.list(actor), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/partner-shares',
    tag: 'partners',
    summary:
      "Show all the caller's photos and videos, or those taken from a day on, in a family member's Photos (Everyone's), read only; again for the same person changes the day. They see each once the server has read when it was taken",
    auth: 'user',
    body: PartnerShareBody,
    responses: { 201: { description: 'Shared (or its day changed)', schema: PartnerShare } },
    errors: ['cannot_share_with_self', 'unknown_user'],
    handler: ({ services, actor, body }) => reply(201, services.partners.share(actor, body)),
  }),
  route({
    method: 'DELETE',
    path: '/partner-shares/:userId',
    tag: 'partners',
    summary: "Stop showing the caller's photos to this family member: effective at once",
    auth: 'user',
    params: PartnerParams,
    responses: none,
    handler: ({ services, actor, params }) => {
      services.partners.stop(actor, params.userId);
    },
  }),
];
