import * as tus from 'tus-js-client';

export interface UploadOptions {
  filename?: string;
  filetype?: string;
  parentId?: string;
  nodeId?: string;
  chunkSize?: number;
  /** More Upload-Metadata (album_id). */
  metadata?: Record<string, string>;
}

/**
 * Uploads `data` with the real tus client, as the web app does; resolves with the node id
 * the completing PATCH answered in `Service-Node-Id`.
 */
export function uploadFile(api: string, token: string, data: Buffer, options: UploadOptions = {}): Promise<string> {
  const metadata: Record<string, string> = { ...options.metadata };
  if (options.filename !== undefined) metadata.filename = options.filename;
  if (options.filetype !== undefined) metadata.filetype = options.filetype;
  if (options.parentId !== undefined) metadata.parent_id = options.parentId;
  if (options.nodeId !== undefined) metadata.node_id = options.nodeId;
  return new Promise((resolve, reject) => {
    let nodeId: string | null = null;
    const upload = new tus.Upload(data, {
      endpoint: `${api}/uploads`,
      chunkSize: options.chunkSize ?? 8 * 1024 * 1024,
      retryDelays: [],
      headers: { Authorization: `Bearer ${token}` },
      metadata,
      onAfterResponse: (_req, res) => {
        nodeId = res.getHeader('Service-Node-Id') ?? nodeId;
      },
      onError: reject,
      onSuccess: () => (nodeId ? resolve(nodeId) : reject(new Error('no Service-Node-Id on the completing response'))),
    });
    upload.start();
  });
}
