/**
 * The unlock grants of password-protected links, for this tab only: sessionStorage survives a
 * reload of the tab but is not shared with other tabs, and is gone when the tab closes. Nothing
 * of a family member's own session is read or written here.
 */
const PREFIX = 'hearth.link-grant.';

interface Kept {
  grant: string;
  expires_at: number;
}

export function keptGrant(token: string): string | null {
  try {
    const raw = sessionStorage.getItem(PREFIX + token);
    if (!raw) return null;
    const kept = JSON.parse(raw) as Kept;
    if (typeof kept.grant !== 'string' || !(kept.expires_at > Date.now())) {
      sessionStorage.removeItem(PREFIX + token);
      return null;
    }
    return kept.grant;
  } catch {
    return null;
  }
}

export function keepGrant(token: string, kept: Kept): void {
  try {
    sessionStorage.setItem(PREFIX + token, JSON.stringify(kept));
  } catch {
    // Storage full or blocked (private mode): the grant lives in memory until a reload.
  }
}

export function dropGrant(token: string): void {
  try {
    sessionStorage.removeItem(PREFIX + token);
  } catch {
    // Nothing kept.
  }
}
