import { DEFAULT_CONFIG } from '../../server/src/config.ts';
import { ApiClient } from '../../server/test/helpers/server.ts';
import { spawnServer, type SpawnedServer } from '../../server/test/helpers/spawn.ts';
import { removeTempDir, stopChild, tempDir, track } from './proc.ts';

/** The production scrypt cost: benchmarks never use the cheap test cost. */
export const PRODUCTION_HASH_COST = DEFAULT_CONFIG.passwordHashCost;

export interface BenchServer {
  server: SpawnedServer;
  client: ApiClient;
  dataDir: string;
  pid: number;
  close(): Promise<void>;
}

/**
 * `server/src/main.ts` in its own process, as `npm start` runs it, on 127.0.0.1 with a fresh
 * data dir in the OS temp dir and the production defaults (only the port and data dir differ).
 */
export async function startBenchServer(): Promise<BenchServer> {
  const dataDir = await tempDir('hearth-bench-');
  const server = await spawnServer(dataDir, {
    PASSWORD_HASH_COST: String(PRODUCTION_HASH_COST),
    LOG_LEVEL: DEFAULT_CONFIG.logLevel,
  });
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
