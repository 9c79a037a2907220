import type { ServerSettings, SettingsView } from '../../contract/server-responses.ts';
import { AppError } from '../../app-error.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { checkReadableName } from '../common/readable-names.ts';

export const DEFAULT_SETTINGS: ServerSettings = {
  server_name: 'Hearth',
  allow_self_registration: false,
  require_device_approval: false,
  trash_retention_days: 30,
  default_quota_bytes: null,
  make_playback_copies: true,
  session_tokens_in_urls: true,
};

export type SettingsPatch = Partial<ServerSettings>;

/** Runtime-editable settings: read by any signed-in account, changed by admins. */
export class SettingsService {
  constructor(
    private readonly deps: ServiceDeps,
    /** Where links open, from the server's public origin: what the share dialog says about them. */
    private readonly linkReach: () => SettingsView['link_reach'] = () => 'home_network',
  ) {}

  /** What GET /server/settings answers and the settings event carries. */
  view(): SettingsView {
    return { ...this.current(), link_reach: this.linkReach() };
  }

  current(): ServerSettings {
    const stored = this.deps.store.settings.all();
    const merged = { ...DEFAULT_SETTINGS };
    for (const key of Object.keys(DEFAULT_SETTINGS) as (keyof ServerSettings)[]) {
      if (key in stored) (merged as Record<string, unknown>)[key] = stored[key];
    }
    return merged;
  }

  update(actor: Actor, patch: SettingsPatch): SettingsView {
    requireAdmin(actor);
    if (patch.server_name !== undefined) {
      const name = patch.server_name.trim();
      if (name.length < 1 || [...name].length > 64) {
        throw new AppError('invalid_input', 'The server name is 1 to 64 characters.', { field: 'server_name' });
      }
      checkReadableName(name, 'server_name');
      patch = { ...patch, server_name: name };
    }
    const changes = Object.entries(patch).filter(([, v]) => v !== undefined);
    this.deps.store.transaction(() => {
      for (const [key, value] of changes) this.deps.store.settings.put(key, value);
    });
    const settings = this.view();
    if (changes.length > 0) this.deps.bus.publish('server.settings_changed', { settings }, { everyone: true });
    return settings;
  }

  /** Used once by setup, before any admin exists to be an actor. */
  setServerName(name: string): void {
    this.deps.store.settings.put('server_name', name.trim());
  }
}
