/**
 * The username rule, one copy for the server (which enforces it) and the web app (which says it
 * beside the field before a form is sent). No server imports: this runs in browsers too.
 *
 * A username is 3 to 32 characters of a–z, A–Z, 0–9, dot, dash and underscore: what a person
 * types on any keyboard to sign in. Spaces around it are not part of it (a phone keyboard adds
 * one after a word it completes): both sides take them away before anything else.
 */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 32;

const ALLOWED = /^[A-Za-z0-9._-]$/;

/** The username a person meant by what they typed. */
export function cleanUsername(typed: string): string {
  return typed.trim();
}

export type UsernameProblem =
  | { kind: 'empty' }
  /** Characters that may not be in a username, each once, in the order typed. */
  | { kind: 'characters'; wrong: string[] }
  | { kind: 'too_short'; length: number }
  | { kind: 'too_long'; length: number };

/** What is wrong with a (cleaned) username, or null when it keeps the rule. */
export function usernameProblem(username: string): UsernameProblem | null {
  if (username === '') return { kind: 'empty' };
  const characters = [...username];
  const wrong = [...new Set(characters.filter((c) => !ALLOWED.test(c)))];
  if (wrong.length > 0) return { kind: 'characters', wrong };
  if (characters.length < USERNAME_MIN) return { kind: 'too_short', length: characters.length };
  if (characters.length > USERNAME_MAX) return { kind: 'too_long', length: characters.length };
  return null;
}
