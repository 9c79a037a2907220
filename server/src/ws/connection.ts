import type { WebSocket } from 'ws';

/**
 * Bytes a socket may hold in its userland write buffer. Below this, messages go straight to
 * the socket (a burst to a healthy client passes through to the kernel); above it they wait
 * in the queue.
 */
const SOCKET_HIGH_WATER_BYTES = 512 * 1024;

/**
 * One client's outbound side. A client that stops reading fills the kernel buffer, writes stop
 * completing, and messages wait in a bounded queue that drops its oldest entry when full: the
 * server's memory per connection stays bounded and no other client waits for this one.
 */
export class Connection {
  alive = true;
  dropped = 0;
  private readonly queue: string[] = [];
  private bytes = 0;
  private inFlight = 0;
  private closing = false;

  constructor(
    readonly socket: WebSocket,
    readonly userId: string,
    readonly sessionId: string,
    private readonly capacity: { messages: number; bytes: number },
    /** Asked for the account's event count on each message (`?event_count=1`): a page sees a dropped one by the gap. */
    readonly countsEvents = false,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  /** What the queue holds, in bytes: bounded as well as the count, since messages vary in size. */
  get queuedBytes(): number {
    return this.bytes;
  }

  send(message: string): void {
    if (this.closing) return;
    this.queue.push(message);
    this.bytes += Buffer.byteLength(message);
    while (this.queue.length > this.capacity.messages || this.bytes > this.capacity.bytes) {
      this.bytes -= Buffer.byteLength(this.queue.shift()!);
      this.dropped++;
    }
    this.pump();
  }

  /** Sends a last message, then closes; gives up on a client that never reads. */
  sendAndClose(message: string, code: number, reason: string, graceMs: number): void {
    this.send(message);
    this.closing = true;
    const finish = () => this.socket.close(code, reason);
    if (this.queue.length === 0 && this.inFlight === 0) finish();
    else this.onDrained = finish;
    setTimeout(() => this.socket.terminate(), graceMs).unref();
  }

  private onDrained: (() => void) | null = null;

  private pump(): void {
    // A pending write always has a callback to come, which pumps again: the queue cannot stall.
    while (this.queue.length > 0 && (this.inFlight === 0 || this.socket.bufferedAmount < SOCKET_HIGH_WATER_BYTES)) {
      const next = this.queue.shift()!;
      this.bytes -= Buffer.byteLength(next);
      this.inFlight++;
      this.socket.send(next, () => {
        this.inFlight--;
        this.pump();
        if (this.inFlight === 0 && this.queue.length === 0 && this.onDrained) {
          const done = this.onDrained;
          this.onDrained = null;
          done();
        }
      });
    }
  }
}
