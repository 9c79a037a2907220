import crypto from 'node:crypto';
import type { PendingResponse, TokenResponse, UserSummary } from '../../contract/identity-responses.ts';
import { cleanUsername } from '../../contract/usernames.ts';
import { AppError } from '../../app-error.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import { usernameKey } from '../../store/database/users.repo.ts';
import type { ClientInfo, ServiceDeps } from '../common/context.ts';
import { toUserSummary } from './user-dto.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { checkNamesFree, checkUsername, cleanDisplayName } from './account-names.ts';
import { hashSecret, newId } from '../common/secrets.ts';
import type { DeviceInfo, SessionService } from './sessions.ts';
import type { SettingsService } from '../server/settings.ts';
import type { SetupGate } from './setup-gate.ts';
import type { TwoFactorService } from './two-factor.ts';
import { checkDeviceInfo } from './device-names.ts';
import { checkPassword } from './passwords.ts';
import { checkReadableName } from '../common/readable-names.ts';

export interface SetupInput extends DeviceInfo {
  username: string;
  password: string;
  server_name?: string | undefined;
  /** Needed from another machine when the server runs headless (see SetupGate). */
  setup_code?: string | undefined;
}

export interface RegisterInput {
  username: string;
  password: string;
  invite_code?: string | undefined;
  display_name?: string | null | undefined;
}

export interface LoginInput extends DeviceInfo {
  username: string;
  password: string;
  totp_code?: string | undefined;
}

export type LoginResult = { status: 200; body: TokenResponse } | { status: 202; body: PendingResponse };

/** First-run setup, registration and password sign-in. */
export class AuthService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly sessions: SessionService,
    private readonly settings: SettingsService,
    private readonly twoFactor: TwoFactorService,
    private readonly gate: SetupGate,
  ) {}

  /**
   * Creates the owner's admin account over the network; refused once anyone exists, and
   * only through the door SetupGate opens for this caller (this PC, or the setup code).
   */
  async setup(input: SetupInput, client: ClientInfo): Promise<TokenResponse> {
    if (this.deps.store.users.count() > 0) throw new AppError('already_set_up');
    await this.gate.admit(client, input.setup_code);
    const user = await this.createOwner(input, addressKey(client.ip));
    const session = this.sessions.open(user, client, input, 'active');
    return this.sessions.issueTokens(session, user);
  }

  /**
   * Setup from the process that hosts the server (the desktop app's window, through its
   * bridge): no network door is involved. The caller opens the owner's session.
   */
  setupAtThisPc(input: SetupInput): Promise<UserRow> {
    if (this.deps.store.users.count() > 0) return Promise.reject(new AppError('already_set_up'));
    if (this.gate.heldForRestore) return Promise.reject(new AppError('restore_running'));
    return this.createOwner(input, undefined);
  }

  private async createOwner(typed: SetupInput, address: string | undefined): Promise<UserRow> {
    const { store } = this.deps;
    const input = { ...typed, username: cleanUsername(typed.username) };
    checkUsername(input.username);
    checkPassword(input.password);
    checkDeviceInfo(input);
    if (input.server_name !== undefined) checkReadableName(input.server_name, 'server_name');
    const passwordHash = await this.deps.passwords.hash(input.password, address);
    // The count is read again inside the transaction: two racing setups cannot both win.
    const user = store.transaction(() => {
      if (store.users.count() > 0) throw new AppError('already_set_up');
      const row = this.newUserRow(input.username, passwordHash, 'admin', null);
      store.users.insert(row);
      // The owner of this PC's Hearth from now on, whatever other admins come later.
      store.owner.recordOwner(row.id);
      if (input.server_name !== undefined && input.server_name.trim() !== '') {
        this.settings.setServerName(input.server_name);
      }
      return store.users.byId(row.id)!;
    });
    this.gate.retire();
    // The server's name on the home network follows the one given at setup (LocalName).
    if (input.server_name !== undefined && input.server_name.trim() !== '') {
      this.deps.bus.publish('server.settings_changed', { settings: this.settings.view() }, { everyone: true });
    }
    return user;
  }

  async register(typed: RegisterInput, client: ClientInfo): Promise<UserSummary> {
    const { store } = this.deps;
    const input = { ...typed, username: cleanUsername(typed.username) };
    checkUsername(input.username);
    checkPassword(input.password);
    const displayName = cleanDisplayName(input.display_name ?? null);
    const inviteHash = input.invite_code ? hashSecret(input.invite_code.trim()) : null;
    if (inviteHash === null && !this.settings.current().allow_self_registration) {
      throw new AppError('invite_required', undefined, { field: 'invite_code' });
    }
    if (inviteHash !== null && !this.inviteUsable(inviteHash)) {
      throw new AppError('invalid_invite', undefined, { field: 'invite_code' });
    }
    if (store.users.byUsername(input.username)) throw new AppError('username_taken', undefined, { field: 'username' });
    const passwordHash = await this.deps.passwords.hash(input.password, addressKey(client.ip));
    const user = store.transaction(() => {
      // Checked again inside the transaction: two racing registrations cannot take one name.
      checkNamesFree(store.users.names(), { username: input.username, displayName });
      let role: UserRow['role'] = 'member';
      if (inviteHash !== null) {
        if (!store.invites.redeem(inviteHash, this.deps.now())) {
          throw new AppError('invalid_invite', undefined, { field: 'invite_code' });
        }
        role = store.invites.byHash(inviteHash)!.role;
      }
      const row = this.newUserRow(input.username, passwordHash, role, displayName);
      if (!store.users.insert(row)) throw new AppError('username_taken', undefined, { field: 'username' });
      return store.users.byId(row.id)!;
    });
    return toUserSummary(user);
  }

  async login(typed: LoginInput, client: ClientInfo): Promise<LoginResult> {
    const { store, rateLimiter, passwords } = this.deps;
    const input = { ...typed, username: cleanUsername(typed.username) };
    checkDeviceInfo(input);
    const address = addressKey(client.ip);
    const accountBucket = `login:acct:${usernameKey(input.username)}`;
    // The guess is counted before the slow hash (parallel guesses all count); the address is
    // refused after the limit, the account only slowed (a guesser cannot lock its owner out).
    let user: UserRow | undefined;
    const passwordOk = await rateLimiter.guess({ limited: [`login:ip:${address}`], slowed: accountBucket }, (signal) => {
      user = store.users.byUsername(input.username);
      return user
        ? passwords.verify(input.password, user.password_hash, address, signal)
        : passwords.verifyAgainstDummy(input.password, address, signal);
    });
    if (!user || !passwordOk) throw new AppError('invalid_credentials');
    if (user.disabled) throw new AppError('account_disabled');
    if (user.totp_secret !== null) this.twoFactor.checkSignInCode(user, input.totp_code, client);
    rateLimiter.reset(accountBucket);
    if (passwords.needsRehash(user.password_hash)) {
      store.users.update(user.id, { password_hash: await passwords.hash(input.password, address) }, this.deps.now());
    }

    // An owner (admin) who also passed the second factor is not held: only owners approve, and
    // one whose every approved device is gone (a restored browser tripping refresh-reuse
    // detection) would otherwise wait for an approval nobody can give. The authenticator or a
    // recovery code proves more than a password, which is all approval guards against. Every
    // admin, not only the recorded owner (store.owner): every admin may approve devices, and
    // the console calls them all owners (README "On the home network", docs/api.md).
    const passedSecondFactor = user.totp_secret !== null;
    const heldForApproval = this.settings.current().require_device_approval && !(passedSecondFactor && user.role === 'admin');
    if (heldForApproval) {
      const session = this.sessions.open(user, client, input, 'pending');
      this.deps.bus.publish(
        'device.pending',
        {
          session_id: session.id,
          user_id: user.id,
          username: user.username,
          device_name: session.device_name,
          platform: session.platform,
          pairing_code: this.sessions.pairingCode(session.id),
        },
        { users: [...new Set([user.id, ...store.users.activeAdminIds()])] },
      );
      return { status: 202, body: this.sessions.pendingResponse(session, user) };
    }
    const session = this.sessions.open(user, client, input, 'active');
    return { status: 200, body: this.sessions.issueTokens(session, user) };
  }

  private inviteUsable(hash: string): boolean {
    const invite = this.deps.store.invites.byHash(hash);
    if (!invite) return false;
    if (invite.expires_at !== null && invite.expires_at <= this.deps.now()) return false;
    return invite.max_uses === null || invite.uses < invite.max_uses;
  }

  private newUserRow(username: string, passwordHash: string, role: UserRow['role'], displayName: string | null) {
    return {
      id: newId(),
      username,
      display_name: displayName,
      role,
      password_hash: passwordHash,
      avatar_seed: crypto.randomBytes(6).toString('hex'),
      quota_bytes: this.settings.current().default_quota_bytes,
      created_at: this.deps.now(),
    };
  }
}
