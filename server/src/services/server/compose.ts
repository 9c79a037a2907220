import type { RestoreService } from '../backup/restore.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { SetupGate } from '../identity/setup-gate.ts';
import type { ServiceParts } from '../parts.ts';
import { HomeAuthorityService } from './home-authority.ts';
import { HomeHttps } from './home-https.ts';
import { localLabel } from './home-names.ts';
import { NetworkService } from './network.ts';
import type { PublicOrigin } from './public-origin.ts';
import type { SettingsService } from './settings.ts';
import { StatusService } from './status.ts';

export interface ServerServices {
  /** Where family devices reach the server, for the URLs it hands out. */
  origin: PublicOrigin;
  status: StatusService;
  settings: SettingsService;
  network: NetworkService;
  /** HTTPS at home as phones meet it: the authority to install, and where a trusting phone goes. */
  homeHttps: HomeHttps;
  homeAuthority: HomeAuthorityService;
}

/**
 * The server itself: its settings and status, and how phones reach it (the home network's
 * names, certificates and Tailscale are made and started by home-network/; these are the
 * owner's and the phones' views of them). `settings` is made first of all services: most read it.
 */
export function serverServices(
  deps: ServiceDeps,
  { origin, serverId, storage, tailnet, httpsCertificates = null, localName }: ServiceParts,
  { settings, setupGate, restore }: { settings: SettingsService; setupGate: SetupGate; restore: RestoreService },
): ServerServices {
  return {
    origin,
    settings,
    status: new StatusService(deps, settings, serverId, setupGate, storage, () => restore.restoring),
    network: new NetworkService(deps.config, tailnet ?? null, localName),
    homeHttps: new HomeHttps(
      httpsCertificates,
      () => settings.current().server_name,
      deps.config.webDir,
      () => localName?.() ?? `${localLabel(settings.current().server_name)}.local`,
    ),
    homeAuthority: new HomeAuthorityService(httpsCertificates),
  };
}
