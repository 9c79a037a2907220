import { HomeHttpsView, HttpsCheckResponse, HttpsOfferResponse } from '../../contract/server-responses.ts';
import type Koa from 'koa';
import { ok, route, type AnyRoute } from '../route-def.ts';

/**
 * HTTPS at home for phones, before anyone signs in: the guided "make Hearth an app" page reads
 * the offer, downloads the authority (Android) or the profile (iOS), and checks the result.
 */
export const httpsRoutes: readonly AnyRoute[] = [
  route({
    method: 'GET',
    path: '/server/https',
    tag: 'server',
    summary: 'Whether this server offers HTTPS at home, and the fingerprint of its certificate authority',
    auth: 'none',
    responses: ok('The offer', HttpsOfferResponse),
    handler: ({ services }) => services.homeHttps.offer(),
  }),
  route({
    method: 'GET',
    path: '/server/https/authority.crt',
    tag: 'server',
    summary: "Hearth's certificate authority (DER, application/x-x509-ca-cert), for Android's Install a certificate → CA certificate",
    auth: 'none',
    responses: ok('The certificate'),
    errors: ['https_off'],
    handler: ({ services, koa }) => {
      const { der, fileName } = services.homeHttps.authorityCertificate();
      sendDownload(koa, 'application/x-x509-ca-cert', fileName, der);
    },
  }),
  route({
    method: 'GET',
    path: '/server/https/profile.mobileconfig',
    tag: 'server',
    summary:
      "An iOS configuration profile (application/x-apple-aspen-config): Hearth's certificate authority and its icon on the home screen",
    auth: 'none',
    responses: ok('The profile'),
    errors: ['https_off'],
    handler: ({ services, koa }) => {
      const { text, fileName } = services.homeHttps.appleProfile(koa.host);
      sendDownload(koa, 'application/x-apple-aspen-config', fileName, text);
    },
  }),
  route({
    method: 'GET',
    path: '/server/https/check',
    tag: 'server',
    summary:
      'Answers whether it was reached over HTTPS. The guided page, on plain HTTP, asks it at the HTTPS address: an answer means this phone trusts the certificate (readable cross-origin; it carries nothing else)',
    auth: 'none',
    responses: ok('Reached', HttpsCheckResponse),
    handler: ({ services, koa }) => {
      // http://host and https://host are two origins: the page on the first reads this from the second.
      koa.set('Access-Control-Allow-Origin', '*');
      koa.set('Cross-Origin-Resource-Policy', 'cross-origin');
      koa.set('Cache-Control', 'no-store');
      return { secure: koa.secure, authority_fingerprint_sha256: koa.secure ? services.homeHttps.servingAuthority() : null };
    },
  }),
  route({
    method: 'GET',
    path: '/admin/https',
    tag: 'admin',
    summary:
      "Hearth's certificate authority for the owner: its fingerprint (what a phone shows when installing it), what it may vouch for, and the names phones use that it does not cover",
    auth: 'admin',
    responses: ok('HTTPS at home', HomeHttpsView),
    handler: ({ services, actor }) => services.homeAuthority.view(actor),
  }),
  route({
    method: 'POST',
    path: '/admin/https/authority',
    tag: 'admin',
    summary:
      'Makes a new certificate authority for the names and networks this server uses now, and a certificate from it. Every phone that trusted the old one must install the new one',
    auth: 'admin',
    responses: ok('The new authority', HomeHttpsView),
    errors: ['https_off'],
    handler: ({ services, actor }) => services.homeAuthority.replace(actor),
  }),
];

/** A file the phone saves and then opens in Settings: its type is what makes the phone offer to install it. */
function sendDownload(koa: Koa.Context, type: string, fileName: string, body: Buffer | string): void {
  koa.state.responded = true;
  koa.type = type;
  koa.attachment(fileName);
  koa.set('Cache-Control', 'no-cache');
  koa.body = body;
}
