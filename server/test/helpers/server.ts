import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startServer, type RunningServer } from '../../src/index.ts';
import { configFromEnv, type ConfigInput } from '../../src/config.ts';

/** Cheap scrypt for tests that sign in often; the production cost is tested on its own. */
export const TEST_HASH_COST = 2 ** 12;

export interface TestServer {
  server: RunningServer;
  url: string;
  /** Base of the API: `${url}/api/v1`. */
  api: string;
  dataDir: string;
  client: ApiClient;
  close(): Promise<void>;
}

export async function makeTempDir(prefix = 'hearth-test-'): Promise<string> {
  return fs.mkdtemp(path.join(os.tmpdir(), prefix));
}

/** The real server on 127.0.0.1 with a free port and a fresh data dir of its own. */
export async function startTestServer(config: ConfigInput = {}): Promise<TestServer> {
  const dataDir = config.dataDir ?? (await makeTempDir());
  const server = await startServer({
    host: '127.0.0.1',
    port: 0,
    logLevel: 'silent',
    passwordHashCost: TEST_HASH_COST,
    // Dozens of servers, few of them given photos: workers start with the first one.
    mediaWorkersAtStart: false,
    // Finding faces loads a model and takes a core: only the tests of faces turn it on.
    findFaces: false,
    // The API suite runs once per SQLite engine (HEARTH_SQLITE=node under Node 24).
    sqliteEngine: configFromEnv().sqliteEngine ?? 'auto',
    // API tests see the API alone, whether or not the web app happens to be built.
    webDir: null,
    // No 16 MB space reserve in each of the suite's hundreds of data folders: the tests of a
    // full disk set their own.
    storageReserveBytes: 0,
    // The machine's own Tailscale, if it has one, must not change the links a test expects.
    tailscale: 'off',
    // An authority and a certificate cost most of a second of CPU: HTTPS tests turn it on.
    https: false,
    ...config,
    dataDir,
  });
  const api = `${server.url}/api/v1`;
  return {
    server,
    url: server.url,
    api,
    dataDir,
    client: new ApiClient(api),
    close: async () => {
      await server.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | undefined;
  body?: unknown;
  /** Sent as is, without JSON encoding. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

function connectionReset(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } }).cause?.code;
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET';
}

/** Real HTTP with fetch; JSON bodies in and out. */
export class ApiClient {
  constructor(readonly base: string) {}

  async request<T = any>(method: string, route: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const send = () => fetch(this.base + route, { method, headers, body: body as BodyInit | undefined });
    // A kept-alive socket the server closed as it was reused: a browser sends a read again on a
    // fresh one, and so does this client (reads only: a write must never be sent twice).
    const response = await send().catch((error: unknown) => {
      if ((method === 'GET' || method === 'HEAD') && connectionReset(error)) return send();
      throw error;
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  get<T = any>(route: string, options?: RequestOptions) {
    return this.request<T>('GET', route, options);
  }
  post<T = any>(route: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', route, { ...options, body });
  }
  patch<T = any>(route: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', route, { ...options, body });
  }
  delete<T = any>(route: string, options?: RequestOptions) {
    return this.request<T>('DELETE', route, options);
  }
}
