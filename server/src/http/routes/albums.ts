import { z } from 'zod';
import {
  Album,
  AlbumAppearance,
  AlbumItem,
  AlbumItemsAdded,
  AlbumMember,
  AlbumMemberRestored,
  AlbumMemberRole,
  NodeAppearances,
} from '../../contract/albums-responses.ts';
import { Node } from '../../contract/files-responses.ts';
import { pageOf } from '../../contract/page.ts';
import { Link } from '../../contract/sharing-responses.ts';
import { IdParam, LinkBody, PageQuery } from '../common-inputs.ts';
import { createOnce } from '../idempotent.ts';
import { none, ok, reply, route, type AnyRoute } from '../route-def.ts';

const NodeIds = z
  .array(z.string().min(1).max(100))
  .max(1000)
  .describe('Node ids of photos and videos, at most 1,000 at a time; each is in an album once, whoever adds it again');

const AlbumBody = z.object({
  name: z.string().max(1000).describe('1 to 100 characters'),
  node_ids: NodeIds.optional().describe('Its first photos and videos (a selection): all go in, or none when one cannot'),
});

const AlbumPatchBody = z.object({
  name: z.string().max(1000).optional(),
  cover_node_id: z.string().min(1).max(100).nullable().optional().describe('One of its photos; null: its newest photo again'),
});

const AlbumListQuery = PageQuery.extend({
  scope: z
    .enum(['all', 'mine', 'shared', 'contribute'])
    .optional()
    .describe(
      'all (the default): the caller owns them or they are shared with it; mine: the caller owns them; shared: shared with the caller; contribute: those the caller may add to',
    ),
});

const ItemsBody = z.object({ node_ids: NodeIds });

const OnLinks = z
  .boolean()
  .describe(
    "Whether the album's public links may show the caller's own photos and videos among these (adding again gives a new answer). Default: yes for the album's owner, no for anyone else. Someone else's photo never reaches a link",
  );

const AddItemsBody = ItemsBody.extend({ on_links: OnLinks.optional() });

const UploadFolderBody = z.object({
  on_links: OnLinks.optional().describe(
    "Whether the album's public links may show what the caller sends into the album from now on (default: yes for the album's owner, no for anyone else)",
  ),
});

const AppearanceParams = z.object({ id: z.string().min(1).max(100), albumId: z.string().min(1).max(100) });

const AppearancePatch = z.object({ on_links: z.boolean().describe("Whether that album's public links may show the photo") });

const MemberBody = z.object({ user_id: z.string().min(1).max(100), role: AlbumMemberRole });

const MemberParams = z.object({ id: z.string().min(1).max(100), userId: z.string().min(1).max(100) });

/** Albums: gathering photos and videos by reference, in time order, and sharing them with family members. */
export const albumRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/albums',
    tag: 'albums',
    summary:
      "Albums: the caller's own and those shared with it (or one scope of them), most recently changed first, each with its cover, counts and dates",
    auth: 'user',
    query: AlbumListQuery,
    responses: ok('A page of albums', pageOf(Album)),
    handler: ({ services, actor, query }) => services.albums.list(actor, query),
  }),
  route({
    method: 'POST',
    path: '/albums',
    tag: 'albums',
    summary: 'Make an album, empty or from a selection (honours Idempotency-Key)',
    auth: 'user',
    body: AlbumBody,
    responses: { 201: { description: 'Created (or the first answer for a repeated key)', schema: Album } },
    errors: ['invalid_album_name', 'not_media', 'in_trash', 'not_found', 'idempotency_conflict'],
    handler: (ctx) => {
      const { value, headers } = createOnce(ctx, 'POST /albums', () => ctx.services.albums.create(ctx.actor, ctx.body));
      return reply(201, value, headers);
    },
  }),
  route({
    method: 'GET',
    path: '/albums/:id',
    tag: 'albums',
    summary: 'One album (its owner and members only)',
    auth: 'user',
    params: IdParam,
    responses: ok('The album', Album),
    handler: ({ services, actor, params }) => services.albums.get(actor, params.id),
  }),
  route({
    method: 'PATCH',
    path: '/albums/:id',
    tag: 'albums',
    summary: 'Rename it or choose its cover (its owner)',
    auth: 'user',
    params: IdParam,
    body: AlbumPatchBody,
    responses: ok('The album', Album),
    errors: ['invalid_album_name', 'forbidden'],
    handler: ({ services, actor, params, body }) => services.albums.update(actor, params.id, body),
  }),
  route({
    method: 'DELETE',
    path: '/albums/:id',
    tag: 'albums',
    summary: 'Delete it (its owner); its photos and videos stay where they are',
    auth: 'user',
    params: IdParam,
    responses: none,
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => {
      services.albums.remove(actor, params.id);
    },
  }),
  route({
    method: 'GET',
    path: '/albums/:id/items',
    tag: 'albums',
    summary:
      'Its photos and videos, oldest taken first; only what it shows (not in the trash, and still readable by whoever added it). Anyone in the album may read these nodes (thumbnail, preview, download), nothing more',
    auth: 'user',
    params: IdParam,
    query: PageQuery,
    responses: ok('A page of items', pageOf(AlbumItem)),
    handler: ({ services, actor, params, query }) => services.albums.items(actor, params.id, query),
  }),
  route({
    method: 'POST',
    path: '/albums/:id/items',
    tag: 'albums',
    summary:
      "Add photos and videos (its owner: their own or shared with them; a contributor: their own); all or none. Nothing is copied. Another's photo (shared with its owner through a grant, viewer or editor) reaches only the people its owner shared it with, never the album's links: only a photo's owner decides who sees it",
    auth: 'user',
    params: IdParam,
    body: AddItemsBody,
    responses: ok('How many were added, and the album', AlbumItemsAdded),
    errors: ['not_media', 'in_trash', 'album_viewer', 'forbidden'],
    handler: ({ services, actor, params, body }) => services.albums.addItems(actor, params.id, body.node_ids, body.on_links),
  }),
  route({
    method: 'POST',
    path: '/albums/:id/items/remove',
    tag: 'albums',
    summary:
      'Take photos and videos out (its owner: any; anyone else: those they added, and their own whoever added them); they stay where they live. Ids not in the album are ignored',
    auth: 'user',
    params: IdParam,
    body: ItemsBody,
    responses: ok('The album', Album),
    errors: ['not_your_album_item'],
    handler: ({ services, actor, params, body }) => services.albums.removeItems(actor, params.id, body.node_ids),
  }),
  route({
    method: 'POST',
    path: '/albums/:id/upload-folder',
    tag: 'albums',
    summary:
      "The caller's folder for photos sent straight into the album (Albums/<album name> in their My files, made if missing, then remembered): upload there with Upload-Metadata album_id",
    auth: 'user',
    params: IdParam,
    body: UploadFolderBody.optional(),
    responses: ok('The folder', Node),
    errors: ['album_viewer'],
    handler: ({ services, actor, params, body }) => services.albumUploads.folder(actor, params.id, body?.on_links),
  }),
  route({
    method: 'GET',
    path: '/albums/:id/shares',
    tag: 'albums',
    summary: 'Public links to the album (its owner); changed and revoked at /shares/{id} as any link',
    auth: 'user',
    params: IdParam,
    responses: ok('Links', pageOf(Link)),
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => ({
      items: services.sharing.linksOfAlbum(actor, params.id, services.origin.current()),
      next_cursor: null,
    }),
  }),
  route({
    method: 'POST',
    path: '/albums/:id/share',
    tag: 'albums',
    summary:
      'Create a public link to the album (its owner; expiry, password, download switch; honours Idempotency-Key): /s/<token> shows its photos as they are at each visit, as a folder of them',
    auth: 'user',
    params: IdParam,
    body: LinkBody,
    responses: { 201: { description: 'Created', schema: Link } },
    errors: ['weak_password', 'forbidden', 'idempotency_conflict', 'busy'],
    handler: async (ctx) => {
      const { services, actor, params, body } = ctx;
      const prepared = await services.sharing.prepareAlbumLink(actor, params.id, body);
      // As for a node's link: the key's record keeps the link's id only, never its token.
      const { value, headers } = createOnce(ctx, `POST /albums/${params.id}/share`, () => ({
        id: services.sharing.insertLink(actor, prepared, services.origin.current()).id,
      }));
      return reply(201, services.sharing.linkOf(actor, value.id, services.origin.current()), headers);
    },
  }),
  route({
    method: 'GET',
    path: '/albums/:id/members',
    tag: 'albums',
    summary: 'Who it is shared with (the owner is its owner_id), first invited first',
    auth: 'user',
    params: IdParam,
    responses: ok('Members', pageOf(AlbumMember)),
    handler: ({ services, actor, params }) => ({ items: services.albumMembers.list(actor, params.id), next_cursor: null }),
  }),
  route({
    method: 'POST',
    path: '/albums/:id/members',
    tag: 'albums',
    summary: 'Share it with a family member as viewer or contributor, or change their role (its owner)',
    auth: 'user',
    params: IdParam,
    body: MemberBody,
    responses: { 201: { description: 'Shared', schema: AlbumMember } },
    errors: ['cannot_share_with_owner', 'unknown_user', 'forbidden'],
    handler: ({ services, actor, params, body }) => reply(201, services.albumMembers.invite(actor, params.id, body)),
  }),
  route({
    method: 'DELETE',
    path: '/albums/:id/members/:userId',
    tag: 'albums',
    summary:
      'Remove someone (its owner), or leave it (the member themselves): effective at once; what they added leaves the album with them (their files stay theirs). The owner may undo a removal for 10 minutes (POST …/restore)',
    auth: 'user',
    params: MemberParams,
    responses: none,
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => {
      services.albumMembers.remove(actor, params.id, params.userId);
    },
  }),
  route({
    method: 'POST',
    path: '/albums/:id/members/:userId/restore',
    tag: 'albums',
    summary:
      'Undo taking someone out (its owner, within 10 minutes of the removal): they are a member again with their role, and the photos they had added are back as they were. Someone who left on their own cannot be brought back this way',
    auth: 'user',
    params: MemberParams,
    responses: ok('Back in the album', AlbumMemberRestored),
    errors: ['undo_too_late', 'unknown_user', 'forbidden'],
    handler: ({ services, actor, params }) => services.albumMembers.restore(actor, params.id, params.userId),
  }),
  route({
    method: 'GET',
    path: '/nodes/:id/appearances',
    tag: 'albums',
    summary:
      'Where a photo is shown, for its owner: every album holding it (whoever put it there, in albums the owner may not be in) and every open public link to it or a folder above it. Anyone else who may read it: 403',
    auth: 'user',
    params: IdParam,
    responses: ok('Its albums and links', NodeAppearances),
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => services.photoAppearances.list(actor, params.id),
  }),
  route({
    method: 'PATCH',
    path: '/nodes/:id/appearances/:albumId',
    tag: 'albums',
    summary:
      "Its owner says whether that album's public links may show the photo (where they put it there themselves: one put there by someone else is on no link, 409 album_item_not_yours to a yes)",
    auth: 'user',
    params: AppearanceParams,
    body: AppearancePatch,
    responses: ok('The album as it now shows the photo', AlbumAppearance),
    errors: ['forbidden', 'album_item_not_yours'],
    handler: ({ services, actor, params, body }) => services.photoAppearances.setOnLinks(actor, params.id, params.albumId, body.on_links),
  }),
  route({
    method: 'DELETE',
    path: '/nodes/:id/appearances/:albumId',
    tag: 'albums',
    summary: 'Its owner takes the photo out of that album, whoever put it there; it stays where it lives',
    auth: 'user',
    params: AppearanceParams,
    responses: none,
    errors: ['forbidden'],
    handler: ({ services, actor, params }) => {
      services.photoAppearances.takeOut(actor, params.id, params.albumId);
    },
  }),
];
