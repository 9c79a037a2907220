import { ApiError, knownCode } from './error-messages.ts';
import type { Answer, TokenResponse } from './types.ts';

/**
 * The desktop app's window (Electron) exposes this bridge from its preload, and only there:
 * the owner at the machine gets a session without a password, handed over in-process. No
 * browser on the network has it, and no HTTP route does what `localSession()` does.
 */
export interface HearthDesktop {
  readonly isDesktop: true;
  /** The owner's token pair; null before first-run setup. */
  localSession(): Promise<unknown>;
  copyText(text: string): Promise<void>;
  /** First-run setup in the desktop window (its server takes no setup over the network). Older apps lack it. */
  setup?(input: { username: string; password: string; server_name?: string }): Promise<unknown>;
  /** A fresh install's restore in the desktop window (its server takes none over the network). Older apps lack them. */
  restoreSnapshots?(input: RestoreThroughDesktop): Promise<unknown>;
  restore?(input: RestoreThroughDesktop & { snapshot_id?: string; accept_unsigned?: boolean }): Promise<unknown>;
}

/** What the first screen's restore sends: a folder or a bucket, and the kit's key. */
export type RestoreThroughDesktop = (
  | { kind: 'folder'; path: string }
  | { kind: 's3'; endpoint: string; region?: string; bucket: string; prefix?: string; access_key_id: string; secret_access_key: string }
) & { key?: string };

export function desktopBridge(): HearthDesktop | null {
  if (typeof window === 'undefined') return null;
  const bridge = (window as { hearthDesktop?: Partial<HearthDesktop> }).hearthDesktop;
  return bridge && typeof bridge.localSession === 'function' && typeof bridge.copyText === 'function' ? (bridge as HearthDesktop) : null;
}

/** The owner's session at this PC, or null (not the desktop window, no owner yet, or the bridge failed). */
export async function localOwnerTokens(): Promise<TokenResponse | null> {
  const bridge = desktopBridge();
  if (!bridge) return null;
  try {
    const tokens = (await bridge.localSession()) as TokenResponse | null;
    return tokens && typeof tokens.access_token === 'string' && typeof tokens.refresh_token === 'string' ? tokens : null;
  } catch {
    return null;
  }
}

type BridgeResult<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; field?: string } };

/** A bridge call's value, or the server's refusal as the API's would come. */
async function throughBridge<T>(call: (() => Promise<unknown>) | null): Promise<T> {
  if (!call) throw new ApiError(0, 'unknown', 'This is not the Hearth app.');
  const result = (await call()) as BridgeResult<T>;
  if (result.ok) return result.value;
  throw new ApiError(400, knownCode(result.error.code), result.error.message, result.error.field);
}

/** Whether this window restores through the desktop app (its server refuses the network's restore). */
export function restoresThroughDesktop(): boolean {
  const bridge = desktopBridge();
  return typeof bridge?.restoreSnapshots === 'function' && typeof bridge.restore === 'function';
}

export function restoreSnapshotsThroughDesktop(input: RestoreThroughDesktop): Promise<Answer<'/setup/restore/snapshots', 'post'>> {
  const bridge = desktopBridge();
  return throughBridge(bridge?.restoreSnapshots ? () => bridge.restoreSnapshots!(input) : null);
}

export function restoreThroughDesktop(
  input: RestoreThroughDesktop & { snapshot_id?: string; accept_unsigned?: boolean },
): Promise<Answer<'/setup/restore', 'post'>> {
  const bridge = desktopBridge();
  return throughBridge(bridge?.restore ? () => bridge.restore!(input) : null);
}

/** The owner's account made through the desktop app's bridge; the server's refusal comes back as the API's would. */
export async function setupThroughDesktop(input: { username: string; password: string; server_name?: string }): Promise<TokenResponse> {
  const setup = desktopBridge()?.setup;
  if (!setup) throw new ApiError(0, 'unknown', 'This is not the Hearth app.');
  const result = (await setup(input)) as
    { ok: true; tokens: TokenResponse } | { ok: false; error: { code: string; message: string; field?: string } };
  if (result.ok) return result.tokens;
  throw new ApiError(400, knownCode(result.error.code), result.error.message, result.error.field);
}
