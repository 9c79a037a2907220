import { AppError } from '../errors.ts';

const USERNAME = /^[A-Za-z0-9._-]{3,32}$/;

export function checkUsername(username: string, field = 'username'): void {
  if (!USERNAME.test(username)) throw new AppError('invalid_username', undefined, { field });
}

export function checkPassword(password: string, field = 'password'): void {
  const length = [...password].length;
  if (length < 10 || length > 256) throw new AppError('weak_password', undefined, { field });
}

/** Display names: trimmed, 1 to 64 characters, no control characters; empty clears. */
export function cleanDisplayName(name: string | null, field = 'display_name'): string | null {
  if (name === null) return null;
  const trimmed = name.normalize('NFC').trim();
  if (trimmed === '') return null;
  // eslint-disable-next-line no-control-regex
  if ([...trimmed].length > 64 || /[\u0000-\u001f\u007f]/.test(trimmed)) {
    throw new AppError('invalid_input', 'Display names are up to 64 characters without control characters.', { field });
  }
  return trimmed;
}
