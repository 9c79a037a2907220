import { usernameProblem } from '../../contract/usernames.ts';
import { AppError } from '../../app-error.ts';

/**
 * Characters that make a name read differently from what it is: C0 and C1 controls (DEL
 * included), line and paragraph separators, and the bidi controls (embeddings, overrides,
 * isolates, and the marks LRM, RLM and ALM). `invoice\u202Efdp.exe` shows as "invoiceexe.pdf".
 */
// eslint-disable-next-line no-control-regex
const SPOOFING_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** A (cleaned: see cleanUsername) username that breaks the rule is 400 `invalid_username`. */
export function checkUsername(username: string, field = 'username'): void {
  if (usernameProblem(username) !== null) throw new AppError('invalid_username', undefined, { field });
}

export function checkPassword(password: string, field = 'password'): void {
  const length = [...password].length;
  if (length < 10 || length > 256) throw new AppError('weak_password', undefined, { field });
}

/** Any name a person reads (file, folder, display, device, server, library): 400 `invalid_name` if it could spoof. */
export function checkReadableName(name: string, field: string): void {
  if (withoutSpoofingCharacters(name) !== name) {
    throw new AppError('invalid_name', 'Names cannot contain control characters or text-direction overrides.', { field });
  }
}

/** Text we record but do not refuse (a User-Agent), with what could spoof removed. */
export function withoutSpoofingCharacters(text: string): string {
  return text.replace(SPOOFING_CHARACTERS, '');
}

/** The device name and platform a sign-in gives are shown to whoever approves the device. */
export function checkDeviceInfo(device: {
  device_name?: string | null | undefined;
  platform?: string | null | undefined;
  device_model?: string | null | undefined;
}): void {
  if (device.device_name) checkReadableName(device.device_name, 'device_name');
  if (device.platform) checkReadableName(device.platform, 'platform');
  if (device.device_model) checkReadableName(device.device_model, 'device_model');
}

/** Display names: trimmed, 1 to 64 characters, nothing that could spoof; empty clears. */
export function cleanDisplayName(name: string | null, field = 'display_name'): string | null {
  if (name === null) return null;
  const trimmed = name.normalize('NFC').trim();
  if (trimmed === '') return null;
  checkReadableName(trimmed, field);
  if ([...trimmed].length > 64) {
    throw new AppError('invalid_name', 'Display names are up to 64 characters.', { field });
  }
  return trimmed;
}

/**
 * How a name reads to a person: compatibility forms folded (fullwidth "Ｍｕｍ" is "mum"),
 * case ignored, runs of spaces as one.
 */
export function nameLookalikeKey(name: string): string {
  return name.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

export interface AccountNames {
  id: string;
  username: string;
  display_name: string | null;
}

/**
 * A display name may not read like another account's display name or username, nor a new
 * username like another account's display name: the people picker and the approval list
 * would show two accounts one cannot tell apart.
 */
export function checkNamesFree(
  others: readonly AccountNames[],
  wanted: { selfId?: string; username?: string; displayName?: string | null },
): void {
  const display = wanted.displayName ? nameLookalikeKey(wanted.displayName) : null;
  const username = wanted.username ? nameLookalikeKey(wanted.username) : null;
  for (const other of others) {
    if (other.id === wanted.selfId) continue;
    const otherDisplay = other.display_name === null ? null : nameLookalikeKey(other.display_name);
    const otherUsername = nameLookalikeKey(other.username);
    if (display !== null && (display === otherDisplay || display === otherUsername)) {
      throw new AppError('display_name_taken', undefined, { field: 'display_name' });
    }
    if (username !== null && (username === otherDisplay || username === otherUsername)) {
      throw new AppError('username_taken', undefined, { field: 'username' });
    }
  }
}
