import { AppError } from '../../app-error.ts';
import type { Node } from '../../contract/files-responses.ts';
import type { PrivateStatus } from '../../contract/private-responses.ts';
import type { PrivateFolderRow } from '../../store/database/private.repo.ts';
import type { Actor, ClientInfo, ServiceDeps } from '../common/context.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { newId } from '../common/secrets.ts';
import { passwordCheckBuckets } from '../identity/accounts.ts';
import type { AccessService } from './access.ts';
import { containerOf, nameColumns, type NodeService } from './nodes.ts';

const PIN = /^[0-9]{4,8}$/;

/** What opens Private: the account's password, or its PIN. */
export type UnlockInput = { password: string; pin?: undefined } | { pin: string; password?: undefined };

/**
 * Each account's Private folder: one top-level folder, made on first use, whose subtree only its
 * owner sees, and only in a session that opened it in the last few minutes. The rules of what
 * it hides live where lists are made (the `in_private` mark, store/database/private.repo.ts) and
 * in the access check (AccessService.privateNode); this service opens, locks and moves.
 */
export class PrivateFolderService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly access: AccessService,
    private readonly nodes: NodeService,
  ) {}

  status(actor: Actor): PrivateStatus {
    const folder = this.deps.store.privateFolders.folderOf(actor.userId);
    const until = this.deps.store.privateFolders.unlockedUntil(actor.sessionId);
    return {
      folder_id: folder?.node_id ?? null,
      unlocked_until: until !== null && until > this.deps.now() ? until : null,
      has_pin: !!folder?.pin_hash,
      unlock_minutes: Math.max(1, Math.round(this.deps.config.privateUnlockMs / 60_000)),
    };
  }

  /**
   * Opens Private in this session for a few minutes. A password or PIN guess counts as a
   * password guess does (the address refused after the limit, the account slowed).
   */
  async unlock(actor: Actor, input: UnlockInput, client: ClientInfo): Promise<PrivateStatus> {
    const folder = this.folder(actor.userId);
    if (input.pin !== undefined && !folder.pin_hash) throw new AppError('no_pin', undefined, { field: 'pin' });
    await this.check(actor, input, client, folder);
    this.deps.store.privateFolders.setUnlockedUntil(actor.sessionId, this.deps.now() + this.deps.config.privateUnlockMs);
    return this.status(actor);
  }

  lock(actor: Actor): PrivateStatus {
    this.deps.store.privateFolders.setUnlockedUntil(actor.sessionId, null);
    return this.status(actor);
  }

  /** Sets or changes the PIN (4 to 8 digits), or takes it away (`null`); the password says it is them. */
  async setPin(actor: Actor, input: { password: string; pin: string | null }, client: ClientInfo): Promise<PrivateStatus> {
    if (input.pin !== null && !PIN.test(input.pin)) throw new AppError('invalid_pin', undefined, { field: 'pin' });
    const folder = this.folder(actor.userId);
    await this.check(actor, { password: input.password }, client, folder);
    const hash = input.pin === null ? null : await this.deps.passwords.hash(input.pin, addressKey(client.ip));
    this.deps.store.privateFolders.setPin(actor.userId, hash);
    return this.status(actor);
  }

  /** "Move to Private": the node (the caller's own) goes into the Private folder, locked or not. */
  moveIn(actor: Actor, nodeId: string): Node {
    const node = this.access.node(actor, nodeId, 'modify');
    if (node.owner_id !== actor.userId) throw new AppError('forbidden');
    const folder = this.folder(actor.userId);
    if (node.in_private) return this.nodes.get(actor, nodeId);
    const name = this.nodes.freeName(containerOf(actor.userId, folder.node_id), node.name, node.type === 'file');
    const moved = this.nodes.update(actor, node.id, { parent_id: folder.node_id, name });
    // Remembered so "Move out" can put it back where it was.
    this.deps.store.privateFolders.rememberOrigin(node.id, node.parent_id, this.deps.now());
    return moved;
  }

  /**
   * "Move out of Private", while Private is open: back to the folder it came from (and so to
   * Photos), or to the top of My files when that folder is gone, in the trash or itself in Private.
   */
  moveOut(actor: Actor, nodeId: string): Node {
    const node = this.access.node(actor, nodeId, 'modify');
    if (!node.in_private) throw new AppError('invalid_move', 'That is not in Private.');
    const parentId = this.homeOf(node);
    const name = this.nodes.freeName(containerOf(actor.userId, parentId), node.name, node.type === 'file');
    const moved = this.nodes.update(actor, node.id, { parent_id: parentId, name });
    this.deps.store.privateFolders.forgetOrigin(node.id);
    return moved;
  }

  /** The folder a node left for Private, if it can still take it back; `null` is the top of My files. */
  private homeOf(node: { id: string; owner_id: string }): string | null {
    const { store } = this.deps;
    const from = store.privateFolders.originOf(node.id);
    if (!from) return null;
    const folder = store.nodes.byId(from, node.owner_id);
    const usable = folder && folder.type === 'folder' && folder.owner_id === node.owner_id && !folder.in_trash && !folder.in_private;
    return usable ? folder.id : null;
  }

  /** The account's Private folder, made the first time it is needed. */
  private folder(userId: string): PrivateFolderRow {
    const { store } = this.deps;
    const existing = store.privateFolders.folderOf(userId);
    if (existing) return existing;
    return store.transaction(() => {
      const again = store.privateFolders.folderOf(userId);
      if (again) return again;
      const id = newId();
      const now = this.deps.now();
      // A folder of the account's own may already be called "Private": this one is never listed
      // beside it, so a free name is enough.
      const name = this.nodes.freeName(containerOf(userId, null), 'Private', false);
      store.nodes.insert({
        id,
        owner_id: userId,
        parent_id: null,
        type: 'folder',
        ...nameColumns(name),
        size: 0,
        mime_type: null,
        version: 0,
        created_by: userId,
        created_at: now,
        is_media: 0,
      });
      store.privateFolders.addFolder(userId, id, now);
      return store.privateFolders.folderOf(userId)!;
    });
  }

  private async check(actor: Actor, input: UnlockInput, client: ClientInfo, folder: PrivateFolderRow): Promise<void> {
    const user = this.deps.store.users.byId(actor.userId);
    if (!user) throw new AppError('not_found');
    const address = addressKey(client.ip);
    const buckets = passwordCheckBuckets(user.id, address);
    const usingPin = input.pin !== undefined;
    const secret = usingPin ? input.pin : input.password;
    const stored = usingPin ? folder.pin_hash! : user.password_hash;
    const right = await this.deps.rateLimiter.guess(buckets, (signal) =>
      // A PIN that cannot be one is still a guess, checked against a dummy so it takes as long.
      usingPin && !PIN.test(secret)
        ? this.deps.passwords.verifyAgainstDummy(secret, address, signal)
        : this.deps.passwords.verify(secret, stored, address, signal),
    );
    if (!right) throw new AppError(usingPin ? 'wrong_pin' : 'wrong_password', undefined, { field: usingPin ? 'pin' : 'password' });
    this.deps.rateLimiter.reset(buckets.slowed);
  }
}
