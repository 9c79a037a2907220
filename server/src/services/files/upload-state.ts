import type { Node } from '../../contract/files-responses.ts';
import type { UploadRow } from '../../store/database/uploads.repo.ts';
import type { Actor } from '../common/context.ts';

/** The largest single file accepted. */
export const MAX_UPLOAD_BYTES = 1024 ** 4;

export interface UploadState {
  id: string;
  offset: number;
  length: number | null;
  metadata: Record<string, string | null>;
  expiresAt: number;
  /** Set when the upload turned out complete and became this node. */
  nodeId?: string;
}

export interface AppendResult {
  offset: number;
  expiresAt: number;
  /** Set when the upload is complete: the node it became. */
  node: Pick<Node, 'id'> | null;
}

export interface AppendInput {
  offset: number;
  /** The total length, when the upload deferred it until now. */
  length?: number | undefined;
  checksum?: { algorithm: 'sha1' | 'sha256'; digest: Buffer } | undefined;
  /** The request's Content-Length, when it sent one. */
  bodyLength?: number | undefined;
}

/**
 * Where a finished upload also goes besides its folder, named by its metadata (an album:
 * `album_id`, see album-uploads.ts). Checked when the upload is created, before any byte is
 * sent; applied in the transaction that makes the file, so a crash cannot keep one without the other.
 */
export interface UploadTargets {
  check(actor: Actor, metadata: Record<string, string | null>): void;
  completed(uploaderId: string, metadata: Record<string, string | null>, node: Node): void;
}

export function tempName(uploadId: string): string {
  return `${uploadId}.upload`;
}

export function toState(upload: UploadRow, offset: number): UploadState {
  return {
    id: upload.id,
    offset,
    length: upload.length,
    metadata: JSON.parse(upload.metadata) as Record<string, string | null>,
    expiresAt: upload.expires_at,
  };
}
