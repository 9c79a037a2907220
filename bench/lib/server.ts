import { DEFAULT_CONFIG } from '../../server/src/config.ts';
import { ApiClient } from '../../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../../server/test/helpers/spawn.ts';
import { removeTempDir, stopChild, tempDir, track } from './proc.ts';

/** The production scrypt cost: benchmarks never use the cheap test cost. */
export const PRODUCTION_HASH_COST = DEFAULT_CONFIG.passwordHashCost;

/** The environment `npm start` runs with by default, plus `env`. */
export function productionEnv(env: Record<string, string> = {}): Record<string, string> {
  return {
    PASSWORD_HASH_COST: String(PRODUCTION_HASH_COST),
    LOG_LEVEL: DEFAULT_CONFIG.logLevel,
    MEDIA_WORKERS_AT_START: DEFAULT_CONFIG.mediaWorkersAtStart ? '1' : '0',
    ...env,
  };
}

export interface BenchServer {
  server: SpawnedServer;
  client: ApiClient;
  dataDir: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * `server/src/main.ts` in its own process, as `npm start` runs it, on 127.0.0.1 with a fresh
 * data dir in the OS temp dir and the production defaults (only the port and data dir differ;
 * `env` may change more, e.g. LOG_LEVEL=warn where per-request logging is not what is measured).
 */
export async function startBenchServer(env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = await tempDir('hearth-bench-');
  const server = await spawnServer(dataDir, productionEnv(env));
  track(server.process);
  return {
    server,
    client: new ApiClient(server.api),
    dataDir,
    pid: server.process.pid!,
    close: async () => {
      await stopChild(server.process);
      await removeTempDir(dataDir);
    },
  };
}
