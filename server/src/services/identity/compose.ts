import type { ServiceDeps } from '../common/context.ts';
import type { ServerKeys } from '../parts.ts';
import type { SettingsService } from '../server/settings.ts';
import { SecretBox } from '../common/secret-box.ts';
import { AccountService } from './accounts.ts';
import { AdminUserService } from './admin-users.ts';
import { AuthService } from './auth.ts';
import { DavPasswordService } from './dav-passwords.ts';
import { DeviceService } from './devices.ts';
import { InviteService } from './invites.ts';
import { LocalOwnerService } from './local-owner.ts';
import { OwnerRecoveryService } from './owner-recovery.ts';
import { OwnerService } from './owner.ts';
import { SessionService } from './sessions.ts';
import { SetupGate } from './setup-gate.ts';
import { TwoFactorService } from './two-factor.ts';

export interface IdentityServices {
  sessions: SessionService;
  auth: AuthService;
  twoFactor: TwoFactorService;
  devices: DeviceService;
  accounts: AccountService;
  adminUsers: AdminUserService;
  invites: InviteService;
  /** Drive passwords: WebDAV sign-in, one per computer. */
  davPasswords: DavPasswordService;
  localOwner: LocalOwnerService;
  owner: OwnerService;
  ownerRecovery: OwnerRecoveryService;
  setupGate: SetupGate;
}

/** Who is who: accounts, sessions and devices, the owner, first-run setup. */
export function identityServices(deps: ServiceDeps, settings: SettingsService, keys: ServerKeys): IdentityServices {
  const sessions = new SessionService(deps, keys.pairing);
  const twoFactor = new TwoFactorService(deps, settings, new SecretBox(keys.totp));
  const owner = new OwnerService(deps);
  const setupGate = new SetupGate(deps, deps.config.hostedSetup);
  return {
    sessions,
    twoFactor,
    owner,
    setupGate,
    localOwner: new LocalOwnerService(deps, sessions, owner),
    ownerRecovery: new OwnerRecoveryService(deps, owner, sessions),
    auth: new AuthService(deps, sessions, settings, twoFactor, setupGate),
    devices: new DeviceService(deps, sessions),
    accounts: new AccountService(deps, sessions),
    adminUsers: new AdminUserService(deps, sessions, owner),
    invites: new InviteService(deps),
    davPasswords: new DavPasswordService(deps),
  };
}
