import assert from 'node:assert/strict';
import http from 'node:http';
import type { SignedIn } from '../../helpers/accounts.ts';
import type { TestServer } from '../../helpers/server.ts';

/** A drive's credentials: the username and a drive password made through the API. */
export interface DriveLogin {
  username: string;
  password: string;
}

export async function driveLogin(t: TestServer, who: SignedIn, username: string): Promise<DriveLogin> {
  const res = await t.client.post('/me/dav-passwords', { name: 'Test computer' }, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { username, password: res.body.password };
}

export function basic(login: DriveLogin): string {
  return `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`;
}

/** One WebDAV request over real HTTP (fetch speaks any method). */
export function dav(
  t: TestServer,
  method: string,
  path: string,
  options: { login?: DriveLogin; headers?: Record<string, string>; body?: BodyInit; redirect?: RequestRedirect } = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.login) headers.Authorization = basic(options.login);
  const init: RequestInit & { duplex?: 'half' } = { method, headers, redirect: options.redirect ?? 'follow' };
  if (options.body !== undefined) {
    init.body = options.body;
    if (options.body instanceof ReadableStream) init.duplex = 'half';
  }
  return fetch(`${t.url}${path}`, init);
}

/** A request whose path is sent exactly as written (fetch would resolve `..` itself). */
export function rawRequest(t: TestServer, method: string, path: string, login: DriveLogin): Promise<number> {
  const url = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path, headers: { Authorization: basic(login), Host: url.host } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

export function propfindBody(props: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop>${props}</D:prop></D:propfind>`;
}

/** The <response> blocks of a multistatus, by href. */
export function responsesOf(xml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of xml.matchAll(/<d:response>([\s\S]*?)<\/d:response>/g)) {
    const href = /<d:href>([^<]*)<\/d:href>/.exec(match[1]!)![1]!;
    out.set(href, match[1]!);
  }
  return out;
}

/** A refusal under /dav/: its catalogue code and message, from the DAV:error body (http/dav/errors.ts). */
export async function davErrorOf(res: Response): Promise<{ code: string; message: string }> {
  const body = await res.text();
  const code = /<h:code>([^<]*)<\/h:code>/.exec(body)?.[1];
  const message = /<h:message>([^<]*)<\/h:message>/.exec(body)?.[1];
  if (code === undefined || message === undefined) throw new Error(`not a DAV:error body: ${body}`);
  return { code, message };
}
