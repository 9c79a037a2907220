import { cleanUsername } from '../../../../server/src/contract/usernames.ts';
import { publicApi } from '../../api/client.ts';
import { ApiError, errorOf } from '../../api/error-messages.ts';
import type { PendingResponse, TokenResponse } from '../../api/types.ts';
import { deviceDescription } from './deviceDescription.ts';

/** A sign-in waiting for approval, as the server described it (the code and pace are newer fields). */
export interface PendingSignIn {
  session_id: string;
  access_token: string;
  pairing_code?: string;
  poll_after_ms?: number;
  /** An owner's sign-in: only they are offered "Owner locked out?" while waiting. */
  owner?: boolean;
}

export type LoginOutcome =
  { kind: 'signed-in'; tokens: TokenResponse } | { kind: 'pending'; pending: PendingSignIn } | { kind: 'totp-required' };

/** One sign-in attempt; errors other than "needs a code" are thrown as ApiError. */
export async function attemptLogin(username: string, password: string, totpCode?: string): Promise<LoginOutcome> {
  const { data, error, response } = await publicApi.POST('/auth/login', {
    body: {
      username: cleanUsername(username),
      password,
      ...(totpCode ? { totp_code: totpCode.replace(/\s+/g, '') } : {}),
      ...deviceDescription(),
    },
  });
  if (response.status === 200) return { kind: 'signed-in', tokens: data as TokenResponse };
  if (response.status === 202) return { kind: 'pending', pending: data as PendingResponse & PendingSignIn };
  const failure = await errorOf(response, error);
  if (failure.code === 'totp_required' && !totpCode) return { kind: 'totp-required' };
  throw failure;
}

const PENDING_KEY = 'hearth.pending';

/** A waiting sign-in survives a reload of this tab (and only this tab: it is no session yet). */
export const pendingStore = {
  load(): PendingSignIn | null {
    try {
      const raw = sessionStorage.getItem(PENDING_KEY);
      return raw ? (JSON.parse(raw) as PendingSignIn) : null;
    } catch {
      return null;
    }
  },
  save(pending: PendingSignIn): void {
    sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
  },
  clear(): void {
    sessionStorage.removeItem(PENDING_KEY);
  },
};

export function messageOf(caught: unknown): string {
  return caught instanceof ApiError ? caught.message : 'Something went wrong. Try again.';
}
