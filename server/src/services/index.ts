import type { ServiceDeps } from './context.ts';
import { AccountService } from './accounts.ts';
import { AdminUserService } from './admin-users.ts';
import { AuthService } from './auth.ts';
import { DeviceService } from './devices.ts';
import { InviteService } from './invites.ts';
import { SessionService } from './sessions.ts';
import { SettingsService } from './settings.ts';
import { StatusService } from './status.ts';
import { TwoFactorService } from './two-factor.ts';

export interface Services {
  status: StatusService;
  settings: SettingsService;
  sessions: SessionService;
  auth: AuthService;
  twoFactor: TwoFactorService;
  devices: DeviceService;
  accounts: AccountService;
  adminUsers: AdminUserService;
  invites: InviteService;
}

export function createServices(deps: ServiceDeps, serverId: string): Services {
  const settings = new SettingsService(deps);
  const sessions = new SessionService(deps);
  const twoFactor = new TwoFactorService(deps, settings);
  return {
    status: new StatusService(deps, settings, serverId),
    settings,
    sessions,
    auth: new AuthService(deps, sessions, settings, twoFactor),
    twoFactor,
    devices: new DeviceService(deps, sessions),
    accounts: new AccountService(deps, sessions),
    adminUsers: new AdminUserService(deps, sessions),
    invites: new InviteService(deps),
  };
}
