import WebSocket, { type RawData } from 'ws';

export interface EventMessage {
  type: string;
  at: number;
  payload: any;
}

/** A real `ws` client on the server's event channel, keeping every message in arrival order. */
export class EventSocket {
  readonly inbox: EventMessage[] = [];
  /** Resolves with the close code and reason once the socket closes. */
  readonly closed: Promise<{ code: number; reason: string }>;
  private wake: (() => void) | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: RawData) => {
      this.inbox.push(JSON.parse(data.toString()) as EventMessage);
      this.wake?.();
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    ws.on('close', () => this.wake?.());
  }

  /** Connects with the bearer header; rejects when the upgrade is refused. */
  static open(serverUrl: string, token: string): Promise<EventSocket> {
    return EventSocket.connect(`${serverUrl.replace(/^http/, 'ws')}/api/v1/ws`, { headers: { authorization: `Bearer ${token}` } });
  }

  /** Connects to any URL with any options (a query token, no token at all). */
  static connect(url: string, options: WebSocket.ClientOptions = {}): Promise<EventSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const socket = new EventSocket(ws);
      ws.once('open', () => resolve(socket));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused with ${res.statusCode}`)));
    });
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  /** Messages received so far and not yet consumed. */
  pending(): EventMessage[] {
    return [...this.inbox];
  }

  /** Consumes messages up to and including the first match and returns them all. */
  async until(match: (m: EventMessage) => boolean, timeoutMs = 5_000): Promise<EventMessage[]> {
    const index = await this.indexOf(match, timeoutMs);
    return this.inbox.splice(0, index + 1);
  }

  /** The first matching message, leaving the inbox as it is. */
  async waitFor(match: (m: EventMessage) => boolean, timeoutMs = 5_000): Promise<EventMessage> {
    return this.inbox[await this.indexOf(match, timeoutMs)]!;
  }

  close(): void {
    this.ws.terminate();
  }

  private async indexOf(match: (m: EventMessage) => boolean, timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.inbox.findIndex(match);
      if (index >= 0) return index;
      const left = deadline - Date.now();
      if (left <= 0 || this.ws.readyState === WebSocket.CLOSED) {
        throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.inbox.map((m) => m.type))}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.wake = () => {
          clearTimeout(timer);
          this.wake = null;
          resolve();
        };
      });
    }
  }
}
