import { tusCreate, tusDelete, tusHead, tusOptions, tusPatch } from '../../uploads/tus-protocol.ts';
import { IdParam } from '../common-inputs.ts';
import { route, type AnyRoute } from '../route-def.ts';

/** tus 1.0.0: the wire protocol is in uploads/tus-protocol.ts, its rules in services/files/uploads.ts. */
export const uploadRoutes: readonly AnyRoute[] = [
  route({
    method: 'OPTIONS',
    path: '/uploads',
    tag: 'uploads',
    summary: 'tus discovery: version, extensions, maximum size',
    auth: 'none',
    responses: { 200: { description: 'Tus-Version, Tus-Extension, Tus-Max-Size, Tus-Checksum-Algorithm; no body' } },
    handler: ({ koa }) => tusOptions(koa),
  }),
  route({
    method: 'POST',
    path: '/uploads',
    tag: 'uploads',
    summary:
      'Create an upload (Upload-Length or Upload-Defer-Length; Upload-Metadata filename, filetype, parent_id, node_id, album_id: a photo or video also joins that album when it completes, for its owner and contributors; taken_at (ms) and taken_offset (minutes east of UTC): the device capture time of a photo or video, used until its own date is read and when the file has none); may carry the first bytes',
    auth: 'user',
    responses: {
      201: { description: "Location: the upload's absolute URL, on the Host the request used; Service-Node-Id if already complete" },
    },
    errors: [
      'tus_version_unsupported',
      'quota_exceeded',
      'payload_too_large',
      'invalid_name',
      'name_too_long',
      'in_trash',
      'not_found',
      'forbidden',
      'album_viewer',
      'invalid_input',
      'checksum_mismatch',
      'checksum_algorithm_unsupported',
      'unsupported_media_type',
    ],
    handler: ({ koa, services, actor }) => tusCreate(koa, services, actor),
  }),
  route({
    method: 'HEAD',
    path: '/uploads/:id',
    tag: 'uploads',
    summary: 'How far an upload got (Upload-Offset)',
    auth: 'user',
    params: IdParam,
    responses: { 200: { description: 'Upload-Offset, Upload-Length, Upload-Metadata' } },
    errors: ['tus_version_unsupported', 'upload_expired'],
    handler: ({ koa, services, actor, params }) => tusHead(koa, services, actor, params.id),
  }),
  route({
    method: 'PATCH',
    path: '/uploads/:id',
    tag: 'uploads',
    summary:
      'Send bytes at Upload-Offset (application/offset+octet-stream, optional Upload-Checksum); the completing PATCH answers Service-Node-Id',
    auth: 'user',
    params: IdParam,
    responses: { 204: { description: 'Upload-Offset; Service-Node-Id when complete' } },
    errors: [
      'tus_version_unsupported',
      'offset_mismatch',
      'upload_expired',
      'checksum_mismatch',
      'checksum_algorithm_unsupported',
      'payload_too_large',
      'unsupported_media_type',
      'missing_field',
      'quota_exceeded',
      'forbidden',
      'in_trash',
    ],
    handler: ({ koa, services, actor, params }) => tusPatch(koa, services, actor, params.id),
  }),
  route({
    method: 'DELETE',
    path: '/uploads/:id',
    tag: 'uploads',
    summary: 'Abandon an upload (termination); a finished one is only forgotten, the file it became stays',
    auth: 'user',
    params: IdParam,
    responses: { 204: { description: 'Gone' } },
    errors: ['tus_version_unsupported', 'upload_expired'],
    handler: ({ koa, services, actor, params }) => tusDelete(koa, services, actor, params.id),
  }),
];
