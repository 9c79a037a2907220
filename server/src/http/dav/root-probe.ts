import type Koa from 'koa';
import { DAV_PREFIX } from './paths.ts';

/** Windows' drive redirector, and Office's own WebDAV client. */
const WINDOWS_DRIVE_AGENTS = /^(Microsoft-WebDAV-MiniRedir|DavClnt)\b/;

/**
 * Windows asks the server's root what it speaks before it opens the address it was given (a
 * root that answers OPTIONS without a DAV header makes "Map network drive" say the folder is not
 * valid), and Office's DavClnt looks for the drive at the root: the root answers those two as
 * the drive's door would, and sends a PROPFIND of it to /dav/, as Nextcloud does for its own.
 * Any other client, and every browser, gets the web app at / as before. True when answered.
 */
export function answerWindowsRootProbe(ctx: Koa.Context): boolean {
  if (ctx.path !== '/' || !WINDOWS_DRIVE_AGENTS.test(ctx.get('User-Agent'))) return false;
  if (ctx.method === 'OPTIONS') {
    ctx.set('DAV', '1, 2');
    ctx.set('MS-Author-Via', 'DAV');
    ctx.set('Allow', 'OPTIONS, PROPFIND');
    ctx.status = 200;
    ctx.body = '';
    return true;
  }
  if (ctx.method === 'PROPFIND') {
    ctx.status = 301;
    ctx.redirect(`${DAV_PREFIX}/`);
    return true;
  }
  return false;
}
