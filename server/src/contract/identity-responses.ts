import { z } from 'zod';

/*
 * What the API answers about accounts, devices, invites and two-step sign-in. Each shape is
 * declared once, as a zod schema: the OpenAPI document describes it, and its type (same name,
 * `z.output`) is what the services return, so a service that answers another shape fails tsc.
 * Times are ms since the epoch. The web app imports these types only (`import type`): it does
 * not bundle zod.
 */

export const Role = z.enum(['admin', 'member']);
export type Role = z.output<typeof Role>;

/** Where the app opens on a phone: the person's choice, kept with the account so a new phone opens there too. */
export const PhoneStart = z
  .enum(['photos', 'files'])
  .describe('Where the web app opens on a phone after signing in (and at its own address): Photos (the default) or My files');
export type PhoneStart = z.output<typeof PhoneStart>;

export const UserSummary = z.object({
  id: z.string(),
  username: z.string(),
  role: Role,
  display_name: z.string().nullable(),
  avatar_seed: z.string(),
  must_change_password: z.boolean(),
  totp_enabled: z.boolean(),
  phone_start: PhoneStart,
});
export type UserSummary = z.output<typeof UserSummary>;

export const Quota = z.object({ used: z.number().int(), limit: z.number().int().nullable() });
export type Quota = z.output<typeof Quota>;

export const TokenResponse = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_at: z.number().int(),
  session_id: z.string(),
  user: UserSummary,
});
export type TokenResponse = z.output<typeof TokenResponse>;

/** Shown on the waiting device and beside its request in the console, to tell which is which. */
const PairingCode = z
  .string()
  .regex(/^\d{6}$/)
  .describe('Six digits derived from the pending session: shown on the waiting device and beside its request in the console');

export const PendingResponse = z.object({
  status: z.literal('pending'),
  session_id: z.string(),
  access_token: z.string().describe('Pending scope: only GET /auth/session/{id}/status accepts it'),
  pairing_code: PairingCode,
  owner: z.boolean().describe('Whether the account is an owner (the waiting screen offers "Owner locked out?" to owners only)'),
});
export type PendingResponse = z.output<typeof PendingResponse>;

export const DeviceStatusResponse = z.union([
  z.object({ status: z.literal('pending'), pairing_code: PairingCode }),
  TokenResponse.extend({ status: z.literal('approved') }).describe('Answered once; polls after that answer 409 tokens_already_issued'),
]);
export type DeviceStatusResponse = z.output<typeof DeviceStatusResponse>;

export const Me = UserSummary.extend({ quota: Quota });
export type Me = z.output<typeof Me>;

export const AdminUser = Me.extend({
  disabled: z.boolean(),
  created_at: z.number().int(),
  // Other admins cannot switch it off, demote or reset it.
  main_owner: z
    .boolean()
    .describe("The account first-run setup made: the desktop app's, never switched off, made a member or reset by another admin"),
});
export type AdminUser = z.output<typeof AdminUser>;

/** Another account as the family sees it: a name and an avatar, nothing private. */
export const PublicUser = z.object({ id: z.string(), name: z.string(), avatar_seed: z.string() });
export type PublicUser = z.output<typeof PublicUser>;

export const UserResponse = z.object({ user: UserSummary });
export type UserResponse = z.output<typeof UserResponse>;

export const SessionStatus = z.enum(['pending', 'active', 'denied', 'revoked']);
export type SessionStatus = z.output<typeof SessionStatus>;

/** One signed-in device of an account. */
export const Session = z.object({
  id: z.string(),
  device_name: z.string().nullable(),
  platform: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.number().int(),
  last_seen_at: z.number().int(),
  approved_at: z.number().int().nullable(),
  status: SessionStatus,
  current: z.boolean(),
});
export type Session = z.output<typeof Session>;

/** A session as the owner's console lists it: whose it is, besides the device. */
export const AdminSession = Session.extend({
  user_id: z.string(),
  username: z.string(),
  display_name: z.string().nullable().describe("The account's display name, what the family calls that person"),
}).describe("A live session of any account; `current` is the caller's own");
export type AdminSession = z.output<typeof AdminSession>;

export const PendingDevice = z.object({
  id: z.string(),
  user_id: z.string(),
  username: z.string(),
  display_name: z.string().nullable().describe("The account's display name, shown on the request instead of the username"),
  device_name: z.string().nullable(),
  platform: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.number().int(),
  pairing_code: PairingCode,
});
export type PendingDevice = z.output<typeof PendingDevice>;

export const Invite = z.object({
  id: z.string(),
  role: Role,
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  expires_at: z.number().int().nullable(),
  created_at: z.number().int(),
  created_by: z.string(),
  label: z.string().nullable().describe('Who it is for, as the owner wrote it'),
  // Only once: the code is stored hashed.
  code: z.string().optional().describe('Only in the response that creates the invite'),
  url: z
    .string()
    .optional()
    .describe(
      "Only in the response that creates the invite: <origin>/invite/<code>, the web app's page that registers with it; the origin is PUBLIC_URL or the detected LAN address, never the request's Host",
    ),
});
export type Invite = z.output<typeof Invite>;

export const InviteCheckResponse = z.object({ valid: z.boolean(), expires_at: z.number().int().optional() });
export type InviteCheckResponse = z.output<typeof InviteCheckResponse>;

export const TotpBeginResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpBeginResponse = z.output<typeof TotpBeginResponse>;

export const RecoveryCodesResponse = z.object({ recovery_codes: z.array(z.string()).length(10) });
export type RecoveryCodesResponse = z.output<typeof RecoveryCodesResponse>;

export const TemporaryPasswordResponse = z.object({ temporary_password: z.string() });
export type TemporaryPasswordResponse = z.output<typeof TemporaryPasswordResponse>;
