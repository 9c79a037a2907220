import crypto from 'node:crypto';

export interface AppleProfileInput {
  /** Hearth's authority, DER. */
  authorityDer: Buffer;
  authorityName: string;
  serverName: string;
  /** Where the home-screen icon opens: the HTTPS address the phone will trust. */
  appUrl: string;
  /** The app's icon (PNG) for the home screen; none leaves iOS to take a screenshot. */
  iconPng: Buffer | null;
}

/**
 * An iOS configuration profile (.mobileconfig): Hearth's authority as a trusted root, and a Web
 * Clip that puts Hearth on the home screen opening its HTTPS address. It is not signed (iOS
 * says "Not Verified" and shows what is inside, which the guided page explains). Its payload
 * ids and UUIDs derive from the authority, so downloading it again replaces the same profile
 * instead of adding a second one.
 */
export function appleProfile(input: AppleProfileInput): string {
  const fingerprint = crypto.createHash('sha256').update(input.authorityDer).digest('hex');
  const id = `app.hearth.${fingerprint.slice(0, 16)}`;
  const uuid = (use: string) => stableUuid(`${fingerprint}:${use}`);
  const root = dict([
    ['PayloadCertificateFileName', string(`${input.authorityName}.cer`)],
    ['PayloadContent', data(input.authorityDer)],
    ['PayloadDescription', string('Lets this phone open Hearth over a private (HTTPS) connection at home.')],
    ['PayloadDisplayName', string(input.authorityName)],
    ['PayloadIdentifier', string(`${id}.authority`)],
    ['PayloadType', string('com.apple.security.root')],
    ['PayloadUUID', string(uuid('authority'))],
    ['PayloadVersion', integer(1)],
  ]);
  const webClip = dict([
    ['FullScreen', '<true/>'],
    ...(input.iconPng ? [['Icon', data(input.iconPng)] as [string, string]] : []),
    ['IsRemovable', '<true/>'],
    ['Label', string(input.serverName)],
    ['PayloadDescription', string('Hearth on the home screen.')],
    ['PayloadDisplayName', string(`${input.serverName} on the home screen`)],
    ['PayloadIdentifier', string(`${id}.webclip`)],
    ['PayloadType', string('com.apple.webClip.managed')],
    ['PayloadUUID', string(uuid('webclip'))],
    ['PayloadVersion', integer(1)],
    ['Precomposed', '<true/>'],
    ['URL', string(input.appUrl)],
  ]);
  const profile = dict([
    ['PayloadContent', `<array>${root}${webClip}</array>`],
    [
      'PayloadDescription',
      string(`Makes ${input.serverName} an app on this phone: a private connection at home, and its icon on the home screen.`),
    ],
    ['PayloadDisplayName', string(`${input.serverName} (Hearth)`)],
    ['PayloadIdentifier', string(id)],
    ['PayloadOrganization', string('Hearth')],
    ['PayloadRemovalDisallowed', '<false/>'],
    ['PayloadType', string('Configuration')],
    ['PayloadUUID', string(uuid('profile'))],
    ['PayloadVersion', integer(1)],
  ]);
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">${profile}</plist>
`;
}

function dict(entries: [string, string][]): string {
  return `<dict>${entries.map(([key, value]) => `<key>${escape(key)}</key>${value}`).join('')}</dict>`;
}

function string(value: string): string {
  return `<string>${escape(value)}</string>`;
}

function integer(value: number): string {
  return `<integer>${value}</integer>`;
}

function data(bytes: Buffer): string {
  return `<data>${bytes.toString('base64')}</data>`;
}

/** A server name is the owner's text: it must never close a tag. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A version-4-shaped UUID made from a hash, so that the same input always names the same payload. */
function stableUuid(seed: string): string {
  const bytes = crypto.createHash('sha256').update(seed).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
