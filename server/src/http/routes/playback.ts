import { PlaybackInfo, PlaybackQueue } from '../../contract/playback-responses.ts';
import { IdParam } from '../common-inputs.ts';
import { ok, route, type AnyRoute } from '../route-def.ts';

/** Videos a browser cannot play: the state of their copy, the copy itself, and the owner's queue. */
export const playbackRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/nodes/:id/playback',
    tag: 'media',
    summary:
      "How to play a video: the original's type with its codecs (ask the browser's canPlayType), and its playback copy's state. A video not looked at yet is looked at now. Play the original where the browser plays it, else the copy once ready; node.playback_changed says when it is",
    auth: 'user',
    params: IdParam,
    responses: ok('The video and its copy', PlaybackInfo),
    errors: ['library_offline'],
    handler: ({ services, actor, params }) => services.playback.info(actor, params.id),
  }),
  route({
    method: 'GET',
    path: '/admin/playback-copies',
    tag: 'admin',
    summary: 'The playback copies: how many wait, the one being made, why the queue waits, and the space the copies take',
    auth: 'admin',
    responses: ok('The queue', PlaybackQueue),
    handler: ({ services, actor }) => services.playback.queueView(actor),
  }),
  route({
    method: 'DELETE',
    path: '/admin/playback-copies',
    tag: 'admin',
    summary:
      'Remove every playback copy to free its space (with make_playback_copies off: they would be made again). They are made again if copies are switched back on',
    auth: 'admin',
    responses: ok('The queue, now empty of copies', PlaybackQueue),
    errors: ['playback_copies_on'],
    handler: ({ services, actor }) => services.playback.removeAll(actor),
  }),
];
