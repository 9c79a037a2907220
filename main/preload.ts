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
  isDesktop: true as const,
});

contextBridge.exposeInMainWorld('hearthDesktop', desktop);
