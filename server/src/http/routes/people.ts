import { z } from 'zod';
import { Node } from '../../contract/files-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { FaceMovedOut, PeopleList, Person, PersonFace, PhotoFaces } from '../../contract/people-responses.ts';
import { IdParam, PageQuery } from '../common-inputs.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';

const PersonPatch = z.object({
  name: z.string().max(500).nullable().optional().describe('Up to 100 characters; "" or null takes the name away'),
  hidden: z.boolean().optional().describe('Leave them out of People (true), or bring them back'),
});

const MergeBody = z.object({
  from: z.array(z.string().max(100)).min(1).max(100).describe('People whose faces join this person; they are gone afterwards'),
});

const FaceParams = z.object({ id: z.string().min(1).max(100), faceId: z.string().min(1).max(100) });

/**
 * People: faces found in the account's own photos on this PC, grouped. Each account sees only
 * the people of its own photos: anyone else's person is 404. A photo's faces go where the photo
 * goes (GET /photos/{id}/faces), with its owner's names.
 */
export const peopleRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/people',
    tag: 'people',
    summary:
      "The people in the caller's own photos, most photos first, each with its clearest face (hidden ones too, marked). Photos in the trash or Private count for nothing",
    auth: 'user',
    responses: ok('People, and how far face finding has got', PeopleList),
    handler: ({ services, actor }) => services.people.list(actor),
  }),
  route({
    method: 'GET',
    path: '/people/:id',
    tag: 'people',
    summary: "One of the caller's people (404 for anyone else's)",
    auth: 'user',
    params: IdParam,
    responses: ok('The person', Person),
    handler: ({ services, actor, params }) => services.people.get(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/people/:id/photos',
    tag: 'people',
    summary: "A person's photos and videos, newest taken first, paged by cursor",
    auth: 'user',
    params: IdParam,
    query: PageQuery,
    responses: ok('A page of photos', pageOf(Node)),
    handler: ({ services, actor, params, query }) => services.people.photos(actor, params.id, query),
  }),
  route({
    method: 'GET',
    path: '/people/:id/faces',
    tag: 'people',
    summary:
      "A person's faces, one for each photo they are in, in the photos' order (newest taken first), paged by cursor: to find one that is not them",
    auth: 'user',
    params: IdParam,
    query: PageQuery,
    responses: ok('A page of faces', pageOf(PersonFace)),
    handler: ({ services, actor, params, query }) => services.people.faces(actor, params.id, query),
  }),
  route({
    method: 'PATCH',
    path: '/people/:id',
    tag: 'people',
    summary: 'Name a person (search then finds their photos by it), or hide them from People',
    auth: 'user',
    params: IdParam,
    body: PersonPatch,
    responses: ok('The person now', Person),
    errors: ['invalid_name'],
    handler: ({ services, actor, params, body }) => services.people.update(actor, params.id, body),
  }),
  route({
    method: 'POST',
    path: '/people/:id/merge',
    tag: 'people',
    summary: "The same person twice: the others' faces join this one (its name kept, else the first name among them)",
    auth: 'user',
    params: IdParam,
    body: MergeBody,
    responses: ok('The person now', Person),
    handler: ({ services, actor, params, body }) => services.people.merge(actor, params.id, body.from),
  }),
  route({
    method: 'DELETE',
    path: '/people/:id/faces/:faceId',
    tag: 'people',
    summary: 'A face that is not this person: it leaves them and becomes a person of its own (never put back with them)',
    auth: 'user',
    params: FaceParams,
    responses: ok('Where the face went', FaceMovedOut),
    handler: ({ services, actor, params }) => services.people.moveOut(actor, params.id, params.faceId),
  }),
  route({
    method: 'GET',
    path: '/photos/:id/faces',
    tag: 'people',
    summary:
      "The faces in a photo and who each is, as its owner named them. Its owner gets every face; anyone else who may see the photo (a partner, an album's people, a grantee) gets the people its owner named and did not hide; 404 for a photo the caller cannot see",
    auth: 'user',
    params: IdParam,
    responses: ok('Its faces', PhotoFaces),
    handler: ({ services, actor, params }) => services.people.photoFaces(actor, params.id),
  }),
];
