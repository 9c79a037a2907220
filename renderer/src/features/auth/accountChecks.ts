import { useState } from 'react';
import {
  cleanUsername,
  usernameProblem as usernameRuleProblem,
  USERNAME_MAX,
  USERNAME_MIN,
} from '../../../../server/src/contract/usernames.ts';
import { ApiError } from '../../api/error-messages.ts';
import { messageOf } from './login.ts';

/*
 * The account rules of the API (the username rule is the server's own, from its contract;
 * passwords 10 to 256 characters, display names up to 64), said the same way in the hint
 * under a field and in the problem beside it, and all checked at once.
 */

export { cleanUsername };

export const USERNAME_HINT = `${USERNAME_MIN} to ${USERNAME_MAX} characters: letters a–z, digits, dots (.), dashes (-) or underscores (_). You type it to sign in.`;
export const PASSWORD_HINT = 'At least 10 characters.';

export type AccountField = 'username' | 'password' | 'display_name' | 'server_name';
export type FieldErrors = Partial<Record<AccountField, string>>;
type Values = Partial<Record<AccountField, string>>;

export function usernameProblem(raw: string): string | null {
  const problem = usernameRuleProblem(cleanUsername(raw));
  if (problem === null) return null;
  switch (problem.kind) {
    case 'empty':
      return 'Choose a username.';
    case 'characters': {
      const named = problem.wrong.slice(0, 3).map((c) => (/\s/u.test(c) ? 'spaces' : `“${c}”`));
      return `Use only letters a–z, digits, dots, dashes or underscores: not ${[...new Set(named)].join(', ')}.`;
    }
    case 'too_short':
      return `A username needs at least ${USERNAME_MIN} characters; this one has ${problem.length}.`;
    case 'too_long':
      return `A username is at most ${USERNAME_MAX} characters; this one has ${problem.length}.`;
  }
}

export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length === 0) return 'Choose a password.';
  if (length < 10) return `A password needs at least 10 characters; this one has ${length}.`;
  if (length > 256) return 'A password is at most 256 characters.';
  return null;
}

export function displayNameProblem(name: string): string | null {
  return [...name.trim()].length > 64 ? 'A name is at most 64 characters.' : null;
}

/** Every problem of the form at once, by field (only for the fields the form has). */
export function checkAccount(values: Values): FieldErrors {
  const errors: FieldErrors = {};
  const problems: [AccountField, string | null][] = [
    ['username', values.username === undefined ? null : usernameProblem(values.username)],
    ['password', values.password === undefined ? null : passwordProblem(values.password)],
    ['display_name', values.display_name === undefined ? null : displayNameProblem(values.display_name)],
  ];
  for (const [field, problem] of problems) if (problem) errors[field] = problem;
  return errors;
}

/**
 * A form's problems beside its fields: nothing before the first try, then every rule at once,
 * kept current while the person types; and the server's own refusal (a name taken) beside the
 * field it names, until that field changes.
 */
export function useAccountChecks(values: Values) {
  const [tried, setTried] = useState(false);
  const [server, setServer] = useState<{ field: AccountField; message: string; value: string | undefined } | null>(null);
  const local = checkAccount(values);
  const errors: FieldErrors = tried ? { ...local } : {};
  if (server && values[server.field] === server.value && !errors[server.field]) errors[server.field] = server.message;
  return {
    errors,
    /** On submit: whether the form may go to the server (every problem is now shown). */
    ready(): boolean {
      setTried(true);
      setServer(null);
      return Object.keys(local).length === 0;
    },
    /** A refusal: placed beside its field when it names one of this form's, else the sentence for the form's notice. */
    place(error: unknown): string | null {
      const field = error instanceof ApiError ? (error.field as AccountField | undefined) : undefined;
      if (field !== undefined && field in values) {
        setServer({ field, message: (error as ApiError).message, value: values[field] });
        return null;
      }
      return messageOf(error);
    },
  };
}
