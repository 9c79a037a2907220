import net from 'node:net';

const LOOPBACK = '127.0.0.1';

/**
 * Where the server listens at start, and where it listens too once the family's network may
 * reach it (`widen`): `rebind` hands the port over to a wildcard address, which covers this
 * PC's loopback as well (Linux refuses a wildcard bind beside a loopback bind of one port);
 * `add` opens one more address beside the loopback one.
 */
export interface ListenPlan {
  first: string;
  then: null | { rebind: string } | { add: string };
}

/**
 * Where to listen. Headless: where it is told. The desktop app (hosted) keeps its window on
 * 127.0.0.1 and, before its owner exists, listens nowhere else; after, a wildcard address
 * from the start, or a specific address beside the loopback one.
 */
export function listenPlan(host: string, hosted: { ownerExists: boolean } | null): ListenPlan {
  if (hosted === null || isLoopbackHost(host)) return { first: host, then: null };
  if (host === '' || host === '0.0.0.0' || host === '::') {
    return hosted.ownerExists ? { first: host, then: null } : { first: LOOPBACK, then: { rebind: host } };
  }
  return { first: LOOPBACK, then: { add: host } };
}

function isLoopbackHost(host: string): boolean {
  return host === LOOPBACK || host === '::1' || host === 'localhost';
}

/** The server's listening sockets, per a plan. */
export class Listening {
  private extra: net.Server | null = null;
  private widened: Promise<void> | null = null;
  private boundPort = 0;

  constructor(
    private readonly server: net.Server,
    readonly plan: ListenPlan,
  ) {}

  get port(): number {
    return this.boundPort;
  }

  /** Listens where the plan starts; resolves with the port (a configured 0 picks one). */
  async start(port: number): Promise<number> {
    await listen(this.server, port, this.plan.first);
    this.boundPort = (this.server.address() as net.AddressInfo).port;
    return this.boundPort;
  }

  /** Opens the rest of the plan, once. Connections already open (the desktop window's) carry on. */
  widen(): Promise<void> {
    this.widened ??= this.open();
    return this.widened;
  }

  /** Stops the extra listener; the server's own is closed with the server. */
  close(): void {
    this.extra?.close();
    this.extra = null;
  }

  private async open(): Promise<void> {
    const next = this.plan.then;
    if (next === null) return;
    if ('add' in next) {
      // A second listening socket hands its connections to the same HTTP server: the same
      // app, WebSocket upgrades, parser-error answers and connection tracking.
      const extra = net.createServer((socket) => this.server.emit('connection', socket));
      await listen(extra, this.boundPort, next.add);
      this.extra = extra;
      return;
    }
    // Stops accepting on loopback and takes the same port on the wildcard at once; only
    // connections idle between requests are closed by the handover (a browser reopens them).
    this.server.close();
    try {
      await listen(this.server, this.boundPort, next.rebind);
    } catch (error) {
      // The wildcard is taken by someone else: keep serving this PC, and say why.
      await listen(this.server, this.boundPort, this.plan.first);
      throw error;
    }
  }
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
