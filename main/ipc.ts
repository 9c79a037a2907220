import type { IpcMain, IpcMainInvokeEvent } from 'electron';

/** The only messages the page may send to main (see preload.ts). */
export const IPC = {
  localSession: 'hearth:local-session',
  copyText: 'hearth:copy-text',
} as const;

export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

/**
 * The page's requests to main: each checks that it comes from the server's own page in the
 * main frame (not an iframe, not another site the window was somehow shown) and what it carries.
 */
export function registerIpc(
  ipcMain: IpcMain,
  origin: () => string,
  handlers: { localSession(): Promise<unknown>; copyText(text: string): void },
): void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return frame !== null && frame === event.sender.mainFrame && sameOrigin(frame.url, origin());
  };
  ipcMain.handle(IPC.localSession, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error('refused: not the server\'s page');
    if (args.length !== 0) throw new Error('refused: this call takes no arguments');
    return handlers.localSession();
  });
  ipcMain.handle(IPC.copyText, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error('refused: not the server\'s page');
    const [text] = args;
    if (args.length !== 1 || typeof text !== 'string' || text.length === 0 || text.length > 2048) throw new Error('refused: copyText takes one string of up to 2048 characters');
    handlers.copyText(text);
  });
}

