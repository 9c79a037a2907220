import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import type { OwnerSetup, RestoreRequest } from './ports.ts';

/** The only messages the page may send to main (see preload.ts). */
export const IPC = {
  localSession: 'hearth:local-session',
  copyText: 'hearth:copy-text',
  setup: 'hearth:setup',
  restoreSnapshots: 'hearth:restore-snapshots',
  restore: 'hearth:restore',
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
  handlers: {
    localSession(): Promise<unknown>;
    copyText(text: string): void;
    setup(input: OwnerSetup): Promise<unknown>;
    restoreSnapshots(input: RestoreRequest): Promise<unknown>;
    restore(input: RestoreRequest): Promise<unknown>;
  },
): void {
  const trusted = (event: IpcMainInvokeEvent) => {
    const frame = event.senderFrame;
    return frame !== null && frame === event.sender.mainFrame && sameOrigin(frame.url, origin());
  };
  ipcMain.handle(IPC.localSession, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error("refused: not the server's page");
    if (args.length !== 0) throw new Error('refused: this call takes no arguments');
    return handlers.localSession();
  });
  ipcMain.handle(IPC.copyText, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error("refused: not the server's page");
    const [text] = args;
    if (args.length !== 1 || typeof text !== 'string' || text.length === 0 || text.length > 2048)
      throw new Error('refused: copyText takes one string of up to 2048 characters');
    handlers.copyText(text);
  });
  // First-run setup: the only way the owner's account is made in the desktop app (the
  // server refuses POST /setup here). The server checks the rules; this checks the shape.
  ipcMain.handle(IPC.setup, (event, ...args: unknown[]) => {
    if (!trusted(event)) throw new Error("refused: not the server's page");
    const input = args.length === 1 ? ownerSetup(args[0]) : null;
    if (input === null) throw new Error('refused: setup takes one object {username, password, server_name?} of strings');
    return handlers.setup(input);
  });
  // A fresh install's restore, refused to the network in the desktop app as setup is: the
  // window is the owner at the PC. The server checks the folder, the kit and that nobody is set up.
  for (const [channel, handle] of [
    [IPC.restoreSnapshots, handlers.restoreSnapshots],
    [IPC.restore, handlers.restore],
  ] as const) {
    ipcMain.handle(channel, (event, ...args: unknown[]) => {
      if (!trusted(event)) throw new Error("refused: not the server's page");
      const input = args.length === 1 ? restoreRequest(args[0]) : null;
      if (input === null)
        throw new Error(
          "refused: restore takes one object {kind: 'folder', path} or {kind: 's3', endpoint, bucket, keys…}, with key? and snapshot_id? (strings) and accept_unsigned? (a boolean)",
        );
      return handle(input);
    });
  }
}

function restoreRequest(value: unknown): RestoreRequest | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const fields = value as Record<string, unknown>;
  const text = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  const optional = (v: unknown, max: number) => v === undefined || text(v, max);
  if (!optional(fields.key, 4096) || !optional(fields.snapshot_id, 100)) return null;
  if (fields.accept_unsigned !== undefined && typeof fields.accept_unsigned !== 'boolean') return null;
  const rest = {
    ...(fields.key !== undefined && { key: fields.key as string }),
    ...(fields.snapshot_id !== undefined && { snapshot_id: fields.snapshot_id as string }),
    ...(fields.accept_unsigned !== undefined && { accept_unsigned: fields.accept_unsigned as boolean }),
  };
  if (fields.kind === 'folder') return text(fields.path, 4096) ? { kind: 'folder', path: fields.path as string, ...rest } : null;
  if (fields.kind !== 's3') return null;
  const { endpoint, region, bucket, prefix, access_key_id, secret_access_key } = fields;
  if (!text(endpoint, 2048) || !text(bucket, 255) || !text(access_key_id, 256) || !text(secret_access_key, 1024)) return null;
  if (!optional(region, 100) || !optional(prefix, 1024)) return null;
  return {
    kind: 's3',
    endpoint: endpoint as string,
    bucket: bucket as string,
    access_key_id: access_key_id as string,
    secret_access_key: secret_access_key as string,
    ...(region !== undefined && { region: region as string }),
    ...(prefix !== undefined && { prefix: prefix as string }),
    ...rest,
  };
}

function ownerSetup(value: unknown): OwnerSetup | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { username, password, server_name } = value as Record<string, unknown>;
  const text = (v: unknown, max: number) => typeof v === 'string' && v.length <= max;
  if (!text(username, 200) || !text(password, 1024) || (server_name !== undefined && !text(server_name, 200))) return null;
  return {
    username: username as string,
    password: password as string,
    ...(server_name !== undefined && { server_name: server_name as string }),
  };
}
