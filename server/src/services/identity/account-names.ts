import { usernameProblem } from '../../contract/usernames.ts';
import { AppError } from '../../app-error.ts';
import { checkReadableName } from '../common/readable-names.ts';

/** A (cleaned: see cleanUsername) username that breaks the rule is 400 `invalid_username`. */
export function checkUsername(username: string, field = 'username'): void {
  if (usernameProblem(username) !== null) throw new AppError('invalid_username', undefined, { field });
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
