import fs from 'node:fs';
import type { HealthResponse, StatusResponse } from '../contract/dto.ts';
import type { ServiceDeps } from './context.ts';
import type { SettingsService } from './settings.ts';

/** What anyone on the network may learn: enough to route a client, nothing about people or files. */
export class StatusService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: SettingsService,
    private readonly serverId: string,
  ) {}

  status(): StatusResponse {
    const settings = this.settings.current();
    return {
      name: settings.server_name,
      server_id: this.serverId,
      version: this.deps.config.version,
      setup_required: this.deps.store.users.count() === 0,
      require_device_approval: settings.require_device_approval,
      allow_self_registration: settings.allow_self_registration,
      ready: this.storageOk(),
    };
  }

  health(): HealthResponse {
    const db = this.dbOk();
    const storage = this.storageOk();
    return {
      status: db && storage ? 'ok' : 'failing',
      version: this.deps.config.version,
      checks: { db: db ? 'ok' : 'failing', storage: storage ? 'ok' : 'failing' },
    };
  }

  private dbOk(): boolean {
    try {
      return this.deps.store.ping();
    } catch {
      return false;
    }
  }

  private storageOk(): boolean {
    try {
      fs.accessSync(this.deps.config.dataDir, fs.constants.W_OK);
      return true;
    } catch {
      return false;
    }
  }
}
