import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import { DavError } from './errors.ts';
import { ExternalEntity, NotXml } from './xml-in.ts';

/**
 * A PROPFIND or PROPPATCH body is a few property names or values (at most 64 KiB each): a
 * longer one is refused (413) before it is read, or as soon as it passes the limit.
 */
export const MAX_XML_BODY = 1024 * 1024;

/** The request body as text, refused past MAX_XML_BODY. */
export async function readText(ctx: Koa.Context): Promise<string> {
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > MAX_XML_BODY) throw new AppError('payload_too_large');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_XML_BODY) throw new AppError('payload_too_large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The body read and parsed by `parse`; a body that is not the XML the method takes is 400, one
 * that names an external entity 403 with DAV:no-external-entities (RFC 4918 16).
 */
export async function readXml<T>(ctx: Koa.Context, method: string, parse: (body: string) => T): Promise<T> {
  const body = await readText(ctx);
  try {
    return parse(body);
  } catch (error) {
    if (error instanceof ExternalEntity) throw new DavError(403, 'forbidden', error.message, 'no-external-entities');
    if (error instanceof NotXml) throw new AppError('invalid_input', `The request body is not a ${method}: ${error.message}`);
    throw error;
  }
}
