/**
 * The bridge between the server's page and the desktop app: a few named functions, frozen.
 * Never ipcRenderer itself: a page that could send any message could ask main for anything.
 * Runs sandboxed, so it may import nothing but Electron's renderer modules.
 */
import { contextBridge, ipcRenderer } from 'electron';

// Kept in step with IPC in window.ts (this file is bundled alone, sandboxed).
const LOCAL_SESSION = 'hearth:local-session';
const COPY_TEXT = 'hearth:copy-text';
const SETUP = 'hearth:setup';
const RESTORE_SNAPSHOTS = 'hearth:restore-snapshots';
const RESTORE = 'hearth:restore';

/** A restore's source, copied field by field: only strings (and one boolean) cross, whatever the page passed. */
function restoreSource(input: { path: string; key?: string; snapshot_id?: string; accept_unsigned?: boolean }) {
  return {
    kind: 'folder' as const,
    path: String(input.path),
    ...(input.key !== undefined && { key: String(input.key) }),
    ...(input.snapshot_id !== undefined && { snapshot_id: String(input.snapshot_id) }),
    ...(input.accept_unsigned !== undefined && { accept_unsigned: input.accept_unsigned === true }),
  };
}

const desktop = Object.freeze({
  /** The owner's session at this machine (null before setup): no password, no approval. */
  localSession: (): Promise<unknown> => ipcRenderer.invoke(LOCAL_SESSION),
  copyText: (text: string): Promise<void> => ipcRenderer.invoke(COPY_TEXT, String(text)),
  /** First-run setup in this window: the owner's account and its session here; no network route does it. */
  setup: (input: { username: string; password: string; server_name?: string }): Promise<unknown> =>
    ipcRenderer.invoke(SETUP, {
      username: String(input.username),
      password: String(input.password),
      ...(input.server_name !== undefined && { server_name: String(input.server_name) }),
    }),
  /** A fresh install's restore in this window: a backup folder's snapshots, then the restore of one. */
  restoreSnapshots: (input: { path: string; key?: string }): Promise<unknown> =>
    ipcRenderer.invoke(RESTORE_SNAPSHOTS, restoreSource(input)),
  restore: (input: { path: string; key?: string; snapshot_id?: string; accept_unsigned?: boolean }): Promise<unknown> =>
    ipcRenderer.invoke(RESTORE, restoreSource(input)),
  isDesktop: true as const,
});

contextBridge.exposeInMainWorld('hearthDesktop', desktop);
