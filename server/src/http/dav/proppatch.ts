import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import { davHref } from './paths.ts';
import { readText } from './read.ts';
import type { Resolved } from './resolve.ts';
import { NotXml, parseProppatch } from './xml-in.ts';
import { multistatus } from './xml-out.ts';

/**
 * PROPPATCH, answered honestly until dead properties have a table to live in: each property
 * named is refused (403 in a 207, RFC 4918 9.2), nothing is half kept. Explorer and Finder set
 * times and attributes after a copy; a clear refusal lets them go on, where a 405 reads as a
 * failed copy.
 */
export async function proppatch(ctx: Koa.Context, at: Resolved): Promise<void> {
  let names;
  try {
    names = parseProppatch(await readText(ctx));
  } catch (error) {
    if (error instanceof NotXml) throw new AppError('invalid_input', `The request body is not a PROPPATCH: ${error.message}`);
    throw error;
  }
  if (!at.exists) throw new AppError('not_found');
  const folder = at.node === null || at.node.type === 'folder';
  ctx.status = 207;
  ctx.type = 'application/xml; charset=utf-8';
  ctx.body = multistatus([{ href: davHref(at.names, folder), found: [], missing: [], refused: names }]);
}
