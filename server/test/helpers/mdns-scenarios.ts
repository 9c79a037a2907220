/**
 * Run by api/server/local-name.test.ts inside a network namespace of its own (helpers/netns.ts),
 * never on this machine's network: starts real servers (server/src/main.ts, as `npm start`
 * does) on the namespace's "home network", listens to and asks the multicast DNS group as a
 * phone would, and prints what it saw as one line, `RESULT <json>`, for the test to judge.
 *   tsx server/test/helpers/mdns-scenarios.ts <announce|conflict|rename|silent>
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import { setupOwner, type SignedIn } from './accounts.ts';
import { MdnsQuerier } from './mdns-querier.ts';
import { NETNS_ADDRESS } from './netns.ts';
import { ApiClient, makeTempDir } from './server.ts';
import { spawnServer, type SpawnedServer } from './spawn.ts';

const scenario = process.argv[2];
const started: { server: SpawnedServer; dataDir: string }[] = [];

interface Hearth {
  server: SpawnedServer;
  client: ApiClient;
  owner: SignedIn;
  port: number;
}

/** A headless server on the namespace's network (HOST=0.0.0.0), set up with its owner. */
async function startHearth(announce: boolean): Promise<Hearth> {
  const dataDir = await makeTempDir('hearth-mdns-');
  const server = await spawnServer(dataDir, { HOST: '0.0.0.0', ANNOUNCE: announce ? '1' : '0' });
  started.push({ server, dataDir });
  const client = new ApiClient(server.api);
  return { server, client, owner: await setupOwner(client), port: Number(new URL(server.url).port) };
}

async function network(hearth: Hearth): Promise<any> {
  const res = await hearth.client.get('/admin/network', { token: hearth.owner.access });
  if (res.status !== 200) throw new Error(`GET /admin/network answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

/** GET /admin/network until its local_name says `host` (or anything, when null), for `timeoutMs`. */
async function localNameOf(hearth: Hearth, host: string | null, timeoutMs = 20_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const body = await network(hearth);
    if (body.local_name !== null && (host === null || body.local_name.host === host)) return body.local_name;
    if (Date.now() > deadline) throw new Error(`local_name never became ${host ?? 'a name'}: ${JSON.stringify(body.local_name)}`);
    await sleep(200);
  }
}

/** The status of GET /api/v1/status sent to this server with the announced name as its Host. */
function statusByName(hearth: Hearth, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: hearth.port, path: '/api/v1/status', headers: { Host: `${host}:${hearth.port}` }, agent: false },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
  });
}

/** The records a phone gets when it looks for web services on the network. */
async function browse(querier: MdnsQuerier): Promise<unknown[]> {
  const since = Date.now();
  await querier.ask('_http._tcp.local', 'PTR');
  await sleep(1_500);
  return querier.records(since);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function run(querier: MdnsQuerier): Promise<unknown> {
  switch (scenario) {
    case 'announce': {
      const hearth = await startHearth(true);
      const localName = await localNameOf(hearth, null);
      const status = await hearth.client.get('/status');
      return {
        port: hearth.port,
        serverId: status.body.server_id,
        version: status.body.version,
        localName,
        browsed: await browse(querier),
        byName: await statusByName(hearth, localName.host),
      };
    }
    case 'conflict': {
      const first = await startHearth(true);
      const firstName = await localNameOf(first, null);
      const second = await startHearth(true);
      const secondName = await localNameOf(second, null);
      return {
        ports: [first.port, second.port],
        localNames: [firstName, secondName],
        browsed: await browse(querier),
        byName: await statusByName(second, secondName.host),
      };
    }
    case 'rename': {
      const hearth = await startHearth(true);
      const before = await localNameOf(hearth, null);
      const renamedAt = Date.now();
      const patch = await hearth.client.patch('/server/settings', { server_name: 'Smith Family Photos' }, { token: hearth.owner.access });
      if (patch.status !== 200) throw new Error(`PATCH /server/settings answered ${patch.status}`);
      const after = await localNameOf(hearth, 'smith-family-photos.local');
      const announced = querier.records(renamedAt);
      // A phone asking for the old name now gets no answer.
      const askedOldAt = Date.now();
      await querier.ask(before.host, 'A');
      await sleep(1_500);
      return { port: hearth.port, before, after, announced, oldNameAnswers: querier.records(askedOldAt), browsed: await browse(querier) };
    }
    case 'silent': {
      const quiet = await startHearth(false);
      // Long enough for a responder to probe and announce twice (RFC 6762 8: under 3 s).
      await sleep(4_000);
      await querier.ask('_http._tcp.local', 'PTR');
      await querier.ask('hearth.local', 'A');
      await sleep(1_500);
      const heardFromQuiet = [...querier.heard];
      const quietNetwork = await network(quiet);
      // The control: the same listener does hear a server that announces.
      const loud = await startHearth(true);
      await localNameOf(loud, null);
      return { heardFromQuiet, quietLocalName: quietNetwork.local_name, heardFromLoud: querier.heard.length - heardFromQuiet.length };
    }
    default:
      throw new Error(`no scenario "${scenario}"`);
  }
}

const querier = await MdnsQuerier.open(NETNS_ADDRESS);
let exitCode = 0;
try {
  process.stdout.write(`RESULT ${JSON.stringify(await run(querier))}\n`);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  exitCode = 1;
} finally {
  querier.close();
  for (const { server, dataDir } of started) {
    await server.stop();
    if (exitCode !== 0) process.stderr.write(`--- server output\n${server.output()}\n`);
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}
process.exit(exitCode);
