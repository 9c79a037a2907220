import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';

const MDNS_GROUP = '224.0.0.251';
const MDNS_PORT = 5353;
/** Our queries carry this id; a responder's packets carry 0 (RFC 6762 18.1), its probes 0 too. */
const OUR_ID = 0x4865;

/** One record heard, in a form a test compares: `data` is the address, the target, the TXT strings... */
export interface HeardRecord {
  section: 'answer' | 'additional' | 'authority';
  name: string;
  type: string;
  ttl: number;
  data: unknown;
}

export interface HeardPacket {
  at: number;
  kind: 'query' | 'response';
  questions: { name: string; type: string }[];
  records: HeardRecord[];
}

/**
 * A multicast DNS listener and querier on the namespace's adapter (helpers/netns.ts), with
 * its own decoder (dns-packet), not the responder's: it hears every packet sent to the group
 * there, and asks questions as a phone would.
 */
export class MdnsQuerier {
  readonly heard: HeardPacket[] = [];

  private constructor(private readonly socket: dgram.Socket) {
    socket.on('message', (message) => {
      let packet: dnsPacket.Packet;
      try {
        packet = dnsPacket.decode(message);
      } catch {
        return;
      }
      if (packet.type === 'query' && packet.id === OUR_ID) return;
      this.heard.push({
        at: Date.now(),
        kind: packet.type === 'response' ? 'response' : 'query',
        questions: (packet.questions ?? []).map((q) => ({ name: q.name, type: q.type })),
        records: [
          ...recordsOf('answer', packet.answers),
          ...recordsOf('authority', packet.authorities),
          ...recordsOf('additional', packet.additionals),
        ],
      });
    });
  }

  static async open(interfaceAddress: string): Promise<MdnsQuerier> {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: true });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(MDNS_PORT, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    socket.addMembership(MDNS_GROUP, interfaceAddress);
    socket.setMulticastInterface(interfaceAddress);
    socket.setMulticastLoopback(true);
    return new MdnsQuerier(socket);
  }

  /** Asks the group, as a phone's browser or resolver does. */
  ask(name: string, type: dnsPacket.RecordType): Promise<void> {
    const message = dnsPacket.encode({ type: 'query', id: OUR_ID, questions: [{ name, type, class: 'IN' }] });
    return new Promise((resolve, reject) =>
      this.socket.send(message, MDNS_PORT, MDNS_GROUP, (error) => (error ? reject(error) : resolve())),
    );
  }

  /** Every record of every response heard since `since` (ms since the epoch). */
  records(since = 0): HeardRecord[] {
    return this.heard.filter((p) => p.kind === 'response' && p.at >= since).flatMap((p) => p.records);
  }

  /** Resolves once a heard record matches, or rejects after `timeoutMs`. */
  async waitFor(match: (record: HeardRecord) => boolean, timeoutMs: number, since = 0): Promise<HeardRecord> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.records(since).find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no such mDNS record heard in ${timeoutMs} ms: ${JSON.stringify(this.records(since))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  close(): void {
    this.socket.close();
  }
}

function recordsOf(section: HeardRecord['section'], answers: dnsPacket.Answer[] | undefined): HeardRecord[] {
  return (answers ?? []).map((answer) => ({
    section,
    name: answer.name,
    type: answer.type,
    ttl: 'ttl' in answer ? (answer.ttl ?? 0) : 0,
    data: dataOf(answer),
  }));
}

function dataOf(answer: dnsPacket.Answer): unknown {
  if (answer.type === 'TXT') {
    const data = Array.isArray(answer.data) ? answer.data : [answer.data];
    return data.map((chunk) => chunk.toString());
  }
  if (answer.type === 'SRV') return { port: answer.data.port, target: answer.data.target };
  if (answer.type === 'OPT') return null;
  return 'data' in answer && Buffer.isBuffer(answer.data) ? answer.data.toString('hex') : (answer as { data?: unknown }).data;
}
