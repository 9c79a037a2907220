import fs from 'node:fs';
import type { AdminStatus, HealthResponse, StatusResponse, StorageState } from '../../contract/server-responses.ts';
import { requireAdmin, type Actor, type ClientInfo, type ServiceDeps } from '../common/context.ts';
import type { SetupGate } from '../identity/setup-gate.ts';
import type { SettingsService } from './settings.ts';
import type { StorageHealth } from '../storage/storage-health.ts';

/** What anyone on the network may learn: enough to route a client, nothing about people or files. */
export class StatusService {
  private readonly startedAt: number;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly settings: SettingsService,
    private readonly serverId: string,
    private readonly setupGate: SetupGate,
    private readonly storage: StorageHealth,
    private readonly restoring: () => boolean = () => false,
  ) {
    this.startedAt = deps.now();
    // Every open app learns at once that nothing new can be saved, and when it can again.
    let told: StorageState = 'ok';
    storage.onChange(() => {
      const now = storage.summary();
      if (now === told) return;
      told = now;
      deps.bus.publish('server.storage', { storage: now }, { everyone: true });
    });
  }

  /** `client` decides what setup asks of this caller (see SetupGate). */
  status(client: ClientInfo): StatusResponse {
    const settings = this.settings.current();
    const setupRequired = this.deps.store.users.count() === 0;
    const door = this.setupGate.door(client);
    return {
      name: settings.server_name,
      server_id: this.serverId,
      version: this.deps.config.version,
      setup_required: setupRequired,
      setup_code_required: setupRequired && door === 'setup_code',
      setup_in_desktop_app: setupRequired && door === 'desktop_app',
      restoring: setupRequired && this.restoring(),
      require_device_approval: settings.require_device_approval,
      allow_self_registration: settings.allow_self_registration,
      ready: this.storageOk(),
      storage: this.storage.summary(),
    };
  }

  /** For the owner's console: how long it has run and where its data lives (a path is no one else's business). */
  adminStatus(actor: Actor): AdminStatus {
    requireAdmin(actor);
    return {
      version: this.deps.config.version,
      started_at: this.startedAt,
      uptime_seconds: Math.max(0, Math.floor((this.deps.now() - this.startedAt) / 1000)),
      data_dir: this.deps.config.dataDir,
    };
  }

  health(): HealthResponse {
    const db = this.dbOk();
    const storage = this.storageCheck();
    return {
      status: db && storage === 'ok' ? 'ok' : 'failing',
      version: this.deps.config.version,
      checks: { db: db ? 'ok' : 'failing', storage },
    };
  }

  /** A full or read-only disk says so; a data folder that is gone or not ours is `failing`. */
  private storageCheck(): HealthResponse['checks']['storage'] {
    const state = this.storage.summary();
    if (state !== 'ok') return state;
    return this.storageOk() ? 'ok' : 'failing';
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
