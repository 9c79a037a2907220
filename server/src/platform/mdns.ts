import type { CiaoService, Responder } from '@homebridge/ciao';

/** An HTTP service to announce: `<instance>._http._tcp.local` on `<host>.local:<port>`. */
export interface MdnsService {
  /** The instance name people see in a service browser ("Hearth"), at most 63 bytes. */
  instance: string;
  /** The host name's one label, without `.local` ("hearth"): letters, digits and hyphens. */
  host: string;
  port: number;
  txt: Record<string, string>;
  /** The one address the server listens on, when it does not listen on all of them. */
  address: string | null;
  /** Whether IPv6 addresses (AAAA) are announced: not for a server that listens on IPv4 alone. */
  ipv6: boolean;
}

/** The names actually won on the network: another device may hold the ones asked for. */
export interface MdnsNames {
  instance: string;
  /** With its domain: `hearth.local`. */
  host: string;
}

export interface MdnsAnnouncement {
  names(): MdnsNames;
  /** Sends goodbyes for its records, so that browsers and caches forget them at once. */
  end(): Promise<void>;
}

export interface MdnsResponder {
  /**
   * Probes the names (RFC 6762 8.1), renaming on a conflict, then announces them; resolves
   * once announced. `onRenamed` hears of a conflict that renames it later (another device
   * claiming the name and winning).
   */
  announce(service: MdnsService, onRenamed: (names: MdnsNames) => void): Promise<MdnsAnnouncement>;
  /** Ends every announcement and closes the sockets. */
  close(): Promise<void>;
}

/**
 * The multicast DNS responder (@homebridge/ciao: RFC 6762/6763, probing, conflict renaming,
 * goodbyes, records following the adapters' addresses as DHCP changes them), bound to UDP 5353
 * on the adapters named, so not on container bridges, VMs or VPN tunnels, which ciao would
 * otherwise answer on too (it takes every adapter `ip link` lists, and misses those whose name
 * it reads as `eth0.10@eth0`). Loaded only when announcing is on, so a server that does not
 * announce never opens a multicast socket.
 */
export async function openMdnsResponder(interfaces: readonly string[]): Promise<MdnsResponder> {
  const ciao = await import('@homebridge/ciao');
  return new CiaoResponder(ciao.getResponder({ interface: [...interfaces] }));
}

class CiaoResponder implements MdnsResponder {
  constructor(private readonly responder: Responder) {}

  async announce(service: MdnsService, onRenamed: (names: MdnsNames) => void): Promise<MdnsAnnouncement> {
    const ciaoService = this.responder.createService({
      name: service.instance,
      type: 'http',
      port: service.port,
      hostname: service.host,
      txt: service.txt,
      disabledIpv6: !service.ipv6,
      ...(service.address !== null && { restrictedAddresses: [service.address] }),
    });
    const announced = new CiaoAnnouncement(ciaoService, service);
    let advertised = false;
    // ciao tells of a new instance name and host name after each probing that renamed them.
    ciaoService.on('name-change', () => {
      if (advertised) onRenamed(announced.names());
    });
    try {
      await ciaoService.advertise();
    } catch (error) {
      await ciaoService.destroy().catch(() => {});
      throw error;
    }
    advertised = true;
    return announced;
  }

  close(): Promise<void> {
    return this.responder.shutdown();
  }
}

/** ciao's private state that the host name's renaming below rewrites. */
interface CiaoHostState {
  hostname: string;
  loweredHostname: string;
  incrementName(nameCheckOnly?: boolean): void;
  rebuildServiceRecords(): void;
}

class CiaoAnnouncement implements MdnsAnnouncement {
  private instance: string;
  private host: string;

  constructor(
    private readonly service: CiaoService,
    asked: MdnsService,
  ) {
    this.instance = asked.instance;
    this.host = asked.host;
    // On a conflict ciao renames "Hearth" to "Hearth (2)" (RFC 6763 4.1.1: fine for an
    // instance name) and the host `hearth` to `hearth-(2)`: brackets are not a host name
    // (RFC 1123: letters, digits, hyphens), a phone's browser may not resolve them, nobody
    // can type them, and the Host check refuses them. So the host becomes `hearth-2` instead.
    // This rewrites ciao's private fields, so the version is pinned and the namespace test
    // (local-name.test.ts) proves the renaming on each upgrade.
    const state = service as unknown as CiaoHostState;
    const increment = state.incrementName.bind(service);
    let conflicts = 0;
    const base = asked.host;
    const setHost = (label: string) => {
      this.host = label;
      state.hostname = `${label}.local.`;
      state.loweredHostname = state.hostname.toLowerCase();
    };
    // The constructor has already numbered a host whose instance name looks numbered
    // ("Hearth (2)" gave `hearth-2-(2)`): the host asked for is kept.
    setHost(base);
    state.incrementName = (nameCheckOnly?: boolean) => {
      increment(nameCheckOnly);
      if (nameCheckOnly) return setHost(this.host);
      conflicts += 1;
      setHost(numberedLabel(base, conflicts + 1));
      state.rebuildServiceRecords();
    };
    service.on('name-change', (name: string) => {
      this.instance = name;
    });
  }

  names(): MdnsNames {
    return { instance: this.instance, host: `${this.host}.local` };
  }

  async end(): Promise<void> {
    await this.service.destroy();
  }
}

/** `hearth` → `hearth-2`, kept within a DNS label's 63 bytes. */
export function numberedLabel(label: string, n: number): string {
  const suffix = `-${n}`;
  return `${label.slice(0, 63 - suffix.length).replace(/-+$/, '')}${suffix}`;
}
