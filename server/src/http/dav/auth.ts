import type Koa from 'koa';
import { AppError } from '../../app-error.ts';
import type { Services } from '../../services/index.ts';
import type { DavActor } from '../../services/identity/dav-passwords.ts';
import { isHomeAddress } from '../../services/server/link-reach.ts';

/** What every refusal of the drive door says, so that Finder and Explorer ask for the password. */
export const DAV_CHALLENGE = { 'WWW-Authenticate': 'Basic realm="Hearth", charset="UTF-8"' };

/**
 * The account behind a request's HTTP Basic credentials: its username and one of its drive
 * passwords (services/identity/dav-passwords.ts refuses the account password). Without
 * credentials, or with wrong ones, 401 with the challenge.
 */
export function davActor(ctx: Koa.Context, services: Services): DavActor {
  // Before any challenge: a 401 would have the client send the password over plain http.
  if (!transportAllows(ctx.protocol, ctx.request.ip || null)) throw new AppError('https_required');
  const credentials = basicCredentials(ctx.get('Authorization'));
  if (!credentials)
    throw new AppError('invalid_credentials', 'Sign in with your username and a drive password.', { headers: DAV_CHALLENGE });
  const forwarded = ['forwarded', 'x-forwarded-for', 'x-real-ip'].some((name) => ctx.get(name) !== '');
  try {
    return services.davPasswords.verify(credentials, { ip: ctx.request.ip || null, userAgent: ctx.get('User-Agent') || null, forwarded });
  } catch (error) {
    if (error instanceof AppError && error.status === 401) {
      throw new AppError(error.code, error.message, { headers: { ...error.headers, ...DAV_CHALLENGE } });
    }
    throw error;
  }
}

function basicCredentials(header: string): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * Whether a drive's password may come over this connection: over https from anywhere; over plain
 * http only from the home network (isHomeAddress), where it does not cross the Internet. Both
 * the protocol and the address are what the server believes: the socket's, or what a proxy in
 * TRUSTED_PROXIES says; forwarding headers from anyone else are not read, so behind a proxy not
 * listed there every request counts as the proxy's own (at home, when it runs on the PC).
 */
export function transportAllows(protocol: string, ip: string | null): boolean {
  return protocol === 'https' || isHomeAddress(ip);
}
