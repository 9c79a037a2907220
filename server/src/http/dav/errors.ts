import type Koa from 'koa';
import { AppError, type ErrorCode } from '../../app-error.ts';
import { DAV_PREFIX } from './paths.ts';
import { davErrorBody } from './xml-out.ts';

/**
 * A refusal under /dav/ whose status WebDAV fixes (RFC 4918: 409 without the parent folder,
 * 412 for Overwrite: F, 502 for another server, 403 with a precondition), where the
 * catalogue's status for the nearest code would be another.
 */
export class DavError extends AppError {
  constructor(
    private readonly davStatus: number,
    code: ErrorCode,
    message: string,
    /** A DAV: precondition (RFC 4918 16), as `propfind-finite-depth`. */
    readonly condition?: string,
  ) {
    super(code, message);
  }

  override get status(): number {
    return this.davStatus;
  }
}

/**
 * How the error envelope writes a refusal of a request under /dav/: a DAV:error XML body (RFC
 * 4918 8.7) rather than the API's JSON, since drive clients read XML; the status and headers
 * (the Basic challenge, Allow) are the same either way. Null elsewhere: the API's JSON.
 */
export function davErrorFormat(ctx: Koa.Context, error: AppError): { type: string; body: string } | null {
  if (ctx.path !== DAV_PREFIX && !ctx.path.startsWith(`${DAV_PREFIX}/`)) return null;
  const condition = error instanceof DavError ? error.condition : undefined;
  return { type: 'application/xml; charset=utf-8', body: davErrorBody({ code: error.code, message: error.message, condition }) };
}
