/**
 * A family's phones reach Hearth as `hearth.local`, a name that survives the router giving the
 * PC another address: the server announces it by multicast DNS (and its web service by DNS-SD),
 * a second Hearth on the network gets a name of its own, a rename follows the owner's new
 * server name, and a server not asked to announce sends nothing. Each test runs real servers
 * in a network namespace of its own (helpers/netns.ts), never on this machine's network.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { HeardPacket, HeardRecord } from '../../helpers/mdns-querier.ts';
import { NETNS_ADDRESS, netnsMissing, runInNetns } from '../../helpers/netns.ts';
import { skipBecause } from '../../helpers/skip.ts';

const missing = netnsMissing();
if (missing && process.env.CI === 'true') throw new Error(`CI must run the mDNS tests: ${missing}`);

/** What helpers/mdns-scenarios.ts saw in its namespace, or the test fails with its output. */
async function scenario(ctx: TestContext, name: string): Promise<any> {
  if (missing) return skipBecause(ctx, `mDNS tests: ${missing}`);
  const run = await runInNetns('server/test/helpers/mdns-scenarios.ts', [name]);
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(run.code === 0 && line, `scenario ${name} failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('RESULT '.length));
}

function find(records: HeardRecord[], name: string, type: string): HeardRecord[] {
  return records.filter((r) => r.name.toLowerCase() === name.toLowerCase() && r.type === type && r.ttl > 0);
}

/** The service a phone finds when browsing: its instance's SRV, TXT and its host's addresses. */
function service(records: HeardRecord[], instance: string) {
  const fqdn = `${instance}._http._tcp.local`;
  const srv = find(records, fqdn, 'SRV')[0]?.data as { port: number; target: string } | undefined;
  return {
    listed: find(records, '_http._tcp.local', 'PTR').some((r) => r.data === fqdn),
    srv,
    txt: find(records, fqdn, 'TXT')[0]?.data as string[] | undefined,
    addresses: srv ? [...new Set(find(records, srv.target, 'A').map((r) => r.data))].sort() : [],
    ipv6: srv ? find(records, srv.target, 'AAAA').length : 0,
  };
}

describe('the server announces its name on the home network (mDNS, in a namespace of its own)', () => {
  test('a phone browsing for web services finds Hearth at hearth.local on its port, with its id in TXT', async (ctx) => {
    const seen = await scenario(ctx, 'announce');
    if (!seen) return;
    assert.deepEqual(seen.localName, { host: 'hearth.local', url: `http://hearth.local:${seen.port}/` });
    const hearth = service(seen.browsed, 'Hearth');
    assert.ok(hearth.listed, 'the PTR of _http._tcp.local lists Hearth');
    assert.deepEqual(hearth.srv, { port: seen.port, target: 'hearth.local' });
    assert.deepEqual(hearth.txt, ['path=/', `id=${seen.serverId}`, `version=${seen.version}`]);
    // The namespace's adapter, and this PC's own loopback (answered on the loopback only).
    assert.deepEqual(hearth.addresses, ['127.0.0.1', NETNS_ADDRESS].sort());
    assert.equal(hearth.ipv6, 0, 'HOST=0.0.0.0 listens on IPv4 only: no AAAA would lead a phone where nothing answers');
    assert.equal(seen.byName, 200, 'a request for Host hearth.local is answered (not 421)');
  });

  test('a second Hearth on the same network gets hearth-2.local and "Hearth (2)", and says so', async (ctx) => {
    const seen = await scenario(ctx, 'conflict');
    if (!seen) return;
    const [firstPort, secondPort] = seen.ports;
    assert.deepEqual(seen.localNames, [
      { host: 'hearth.local', url: `http://hearth.local:${firstPort}/` },
      { host: 'hearth-2.local', url: `http://hearth-2.local:${secondPort}/` },
    ]);
    const first = service(seen.browsed, 'Hearth');
    const second = service(seen.browsed, 'Hearth (2)');
    assert.ok(first.listed && second.listed, 'both are listed');
    assert.deepEqual(first.srv, { port: firstPort, target: 'hearth.local' });
    assert.deepEqual(second.srv, { port: secondPort, target: 'hearth-2.local' });
    assert.ok(second.addresses.includes(NETNS_ADDRESS));
    assert.equal(seen.byName, 200, 'a request for Host hearth-2.local is answered');
  });

  test('the owner renaming the server renames it on the network, and the old name is let go', async (ctx) => {
    const seen = await scenario(ctx, 'rename');
    if (!seen) return;
    assert.equal(seen.before.host, 'hearth.local');
    assert.deepEqual(seen.after, { host: 'smith-family-photos.local', url: `http://smith-family-photos.local:${seen.port}/` });
    // Goodbyes (TTL 0, RFC 6762 10.1) tell phones and caches to forget the old records at once.
    assert.ok(
      seen.announced.some((r: HeardRecord) => r.name === 'hearth.local' && r.type === 'A' && r.ttl === 0),
      'a goodbye for hearth.local was sent',
    );
    assert.deepEqual(find(seen.oldNameAnswers, 'hearth.local', 'A'), [], 'nobody answers for hearth.local any more');
    const renamed = service(seen.browsed, 'Smith Family Photos');
    assert.deepEqual(renamed.srv, { port: seen.port, target: 'smith-family-photos.local' });
    assert.ok(!service(seen.browsed, 'Hearth').listed, 'Hearth is no longer listed');
  });

  test('a server not asked to announce (ANNOUNCE=0) sends nothing to the mDNS group', async (ctx) => {
    const seen = await scenario(ctx, 'silent');
    if (!seen) return;
    assert.deepEqual(
      seen.heardFromQuiet.map((p: HeardPacket) => ({ kind: p.kind, questions: p.questions, records: p.records })),
      [],
    );
    assert.equal(seen.quietLocalName, null);
    assert.ok(seen.heardFromLoud > 0, 'the same listener hears a server that announces: its silence above means something');
  });
});
