import type { EventBus } from '../../events/bus.ts';
import type { Logger } from '../../log.ts';
import type { MdnsAnnouncement, MdnsNames, MdnsResponder } from '../../platform/mdns.ts';

/** A DNS label's most bytes (RFC 1035 2.3.4). */
const MAX_LABEL = 63;
/** Room kept in the instance name for the number a conflict adds (" (12)"). */
const INSTANCE_NUMBER_ROOM = 6;
const FALLBACK_LABEL = 'hearth';

/**
 * The host name's label for a server name: `Hearth` → `hearth`, `Smith Family PC` →
 * `smith-family-pc`, `Müller` → `muller`. Lower case (the family types it), letters, digits
 * and single hyphens only (RFC 1123 host names: what every phone's resolver takes), no
 * hyphen at either end, at most 63 bytes. A name with nothing usable is `hearth`.
 */
export function hostLabelFor(serverName: string): string {
  const label = serverName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, MAX_LABEL)
    .replace(/-+$/, '');
  return label === '' ? FALLBACK_LABEL : label;
}

/**
 * The instance name a service browser shows: the server name as the owner wrote it, within
 * one DNS label with room for a conflict's " (2)". A dot would split the label in two, so it
 * is a space here.
 */
export function instanceNameFor(serverName: string): string {
  let name = serverName.replace(/\./g, ' ').replace(/\s+/g, ' ').trim();
  while (Buffer.byteLength(name) > MAX_LABEL - INSTANCE_NUMBER_ROOM) name = [...name].slice(0, -1).join('');
  return name.trim() || 'Hearth';
}

/** Where the home network reaches the server (http/listening.ts homeNetworkListen, and the port). */
export interface ListenAt {
  port: number;
  /** Its one address, or null for all of them. */
  address: string | null;
  ipv6: boolean;
}

export interface LocalNameDeps {
  /** Opens the multicast DNS responder on these adapters (platform/mdns.ts); never called by a server that does not announce. */
  openResponder: (adapters: readonly string[]) => Promise<MdnsResponder>;
  /** The adapters of the home network now, the Connect page's (platform/network.ts): no containers, VMs or VPNs. */
  lanAdapters: () => string[];
  serverName: () => string;
  /** What the TXT record says besides `path=/`: which server this is, and its version. */
  txt: Record<string, string>;
  bus: EventBus;
  log: Logger;
}

/**
 * The server's name on the home network, `<server-name>.local` (mDNS), and its HTTP service
 * (DNS-SD `_http._tcp`), so a bookmark, an invite or a QR code keeps working when the router
 * hands the PC another address. A second Hearth on the network gets a name of its own
 * (`hearth-2.local`): `current()` says which one this server won, and `onChange` tells those
 * who print it (the HTTPS certificate, made for this name) when it changes: a conflict, the
 * owner renaming the server, a stop.
 */
export class LocalName {
  private responder: MdnsResponder | null = null;
  /** The adapters the responder is bound to. */
  private adapters: string[] = [];
  private announcement: MdnsAnnouncement | null = null;
  private announced: MdnsNames | null = null;
  /** The names the server name asked for at the last announcement (a conflict may have given others). */
  private askedFor: { instance: string; host: string } | null = null;
  private where: ListenAt | null = null;
  /** Announcing, renaming and stopping run one after another, in the order asked. */
  private queue: Promise<void> = Promise.resolve();
  private readonly listeners = new Set<(host: string | null) => void>();
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: LocalNameDeps) {}

  /** The host name announced now ('hearth.local'), or null when not announcing. */
  current(): string | null {
    return this.announced?.host ?? null;
  }

  /** Hears each change of `current()`. Answers the unsubscribe. */
  onChange(listener: (host: string | null) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Starts announcing the server where it listens. Resolves once announced, or once it failed:
   * the server works without its name (the addresses still do), so a failure is logged, not thrown.
   */
  start(at: ListenAt): Promise<void> {
    return this.enqueue(async () => {
      if (this.where !== null) return;
      this.where = at;
      // The owner renaming the server renames it on the network too.
      this.unsubscribe = this.deps.bus.subscribe(({ message }) => {
        if (message.type === 'server.settings_changed') void this.enqueue(() => this.follow());
      });
      await this.announce();
    });
  }

  /** Sends goodbyes for the name and closes the sockets. */
  stop(): Promise<void> {
    return this.enqueue(async () => {
      this.unsubscribe?.();
      this.unsubscribe = null;
      this.where = null;
      await this.withdraw();
      await this.closeResponder();
    });
  }

  /**
   * Looks at the home network's adapters again (the local name job, jobs/home-network.ts):
   * Wi-Fi that joins after the start gets the name too. Nothing happens while not announcing.
   */
  recheckAdapters(): Promise<void> {
    return this.enqueue(() => this.followAdapters());
  }

  /** Announces again when the server name now asks for other names than those announced. */
  private async follow(): Promise<void> {
    if (this.where === null) return;
    const asked = this.asked();
    const same = asked.instance === this.askedFor?.instance && asked.host === this.askedFor.host;
    // A failed announcement is tried again under the new name.
    if (same && this.announcement !== null) return;
    await this.withdraw();
    await this.announce();
  }

  /** Announces on the home network's adapters as they are now, when they changed. */
  private async followAdapters(): Promise<void> {
    if (this.where === null || sameSet(this.deps.lanAdapters(), this.adapters)) return;
    await this.withdraw();
    await this.closeResponder();
    await this.announce();
  }

  private asked(): { instance: string; host: string } {
    const name = this.deps.serverName();
    return { instance: instanceNameFor(name), host: hostLabelFor(name) };
  }

  private async announce(): Promise<void> {
    const where = this.where!;
    const asked = this.asked();
    this.askedFor = asked;
    const adapters = this.deps.lanAdapters();
    if (!sameSet(adapters, this.adapters)) await this.closeResponder();
    this.adapters = adapters;
    // No home network (yet): nothing to announce on; the recheck tries again when one appears.
    if (adapters.length === 0) return;
    try {
      this.responder ??= await this.deps.openResponder(adapters);
      this.announcement = await this.responder.announce({ ...asked, ...where, txt: { path: '/', ...this.deps.txt } }, (names) =>
        this.settle(names),
      );
      this.settle(this.announcement.names());
      this.deps.log.info('announced on the home network', { host: this.announced!.host, instance: this.announced!.instance });
    } catch (error) {
      this.announcement = null;
      this.deps.log.warn('could not announce the server on the home network (its addresses still work)', { error: String(error) });
    }
  }

  private async withdraw(): Promise<void> {
    const announcement = this.announcement;
    this.announcement = null;
    this.settle(null);
    await announcement?.end().catch((error: unknown) => this.deps.log.warn('mDNS goodbye not sent', { error: String(error) }));
  }

  private async closeResponder(): Promise<void> {
    const responder = this.responder;
    this.responder = null;
    this.adapters = [];
    await responder?.close().catch((error: unknown) => this.deps.log.warn('mDNS responder not closed', { error: String(error) }));
  }

  private settle(names: MdnsNames | null): void {
    const before = this.current();
    this.announced = names;
    if (this.current() === before) return;
    for (const listener of this.listeners) {
      try {
        listener(this.current());
      } catch (error) {
        this.deps.log.error('local name listener failed', { error: String(error) });
      }
    }
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => {});
    return run;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((name) => b.includes(name));
}
