import { ServerResponse, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerConfig } from '../config.ts';
import type { EventMessage, EventPayloads } from '../contract/events.ts';
import { AppError } from '../app-error.ts';
import { isInAudience, type BusEvent, type EventBus } from '../events/bus.ts';
import type { Logger } from '../log.ts';
import type { SessionService } from '../services/identity/sessions.ts';
import { bearerToken } from '../http/bearer.ts';
import { API_PREFIX } from '../http/paths.ts';
import { answerOnSocket } from '../http/raw-response.ts';
import type { HostAllowList } from '../http/host-allow-list.ts';
import { Connection } from './connection.ts';

const WS_PATH = `${API_PREFIX}/ws`;
/** Close code telling the client its session ended and reconnecting is pointless. */
export const CLOSE_SESSION_REVOKED = 4001;
/** Close code of the oldest socket of a session or account that opened one too many. */
export const CLOSE_TOO_MANY_CONNECTIONS = 4008;
/** A socket told to close that does not answer its close frame is cut after this. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The event channel. Authenticates the HTTP upgrade itself (before any WebSocket exists),
 * then forwards bus events to the connections whose account is in the event's audience.
 * It only subscribes: services never talk to it.
 */
export class WsGateway {
  private readonly wss: WebSocketServer;
  private readonly connections = new Set<Connection>();
  private readonly heartbeat: NodeJS.Timeout;
  private readonly unsubscribe: () => void;
  /** The bus's own, counted before this gateway hears each event. */
  private readonly eventCounts: EventBus['counts'];

  constructor(
    server: Server,
    bus: EventBus,
    private readonly sessions: SessionService,
    private readonly config: ServerConfig['ws'],
    private readonly log: Logger,
    private readonly hosts: HostAllowList,
    /** The HTTP app, for requests elsewhere that merely offer an upgrade (Upgrade: h2c). */
    private readonly handleRequest: (req: IncomingMessage, res: ServerResponse) => void,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: config.maxPayloadBytes });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.eventCounts = bus.counts;
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.heartbeat = setInterval(() => this.beat(), config.heartbeatMs);
    this.heartbeat.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Per-connection queue figures, for tests and diagnostics. */
  stats(): { userId: string; sessionId: string; queued: number; queuedBytes: number; dropped: number }[] {
    return [...this.connections].map((c) => ({
      userId: c.userId,
      sessionId: c.sessionId,
      queued: c.queued,
      queuedBytes: c.queuedBytes,
      dropped: c.dropped,
    }));
  }

  close(): void {
    this.unsubscribe();
    clearInterval(this.heartbeat);
    for (const connection of this.connections) connection.socket.terminate();
    this.wss.close();
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== WS_PATH) {
      // An upgrade offered anywhere else is declined by answering the request as it is. Node
      // has stopped parsing the connection by now, so a body would not reach the app: such a
      // request is refused rather than answered as if it had none.
      if (Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined) {
        answerOnSocket(
          socket,
          new AppError('invalid_handshake', 'Only the WebSocket endpoint upgrades; send this request without an Upgrade header.'),
        );
      } else {
        answerWithoutUpgrade(req, socket, this.handleRequest);
      }
      return;
    }
    try {
      checkHandshake(req);
      // A rebound page must not open the event channel either (see HostAllowList).
      if (!this.hosts.allowsRequest(req)) throw new AppError('misdirected_request');
      const token = bearerToken('GET', '/ws', req.headers, url.searchParams);
      if (token === null) throw new AppError('unauthorized');
      const actor = this.sessions.authenticate(token);
      if (actor.scope !== 'full') throw new AppError('pending_approval');
      const tellCount = url.searchParams.get('event_count') === '1';
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, actor.userId, actor.sessionId, tellCount));
    } catch (caught) {
      const error = caught instanceof AppError ? caught : new AppError('internal');
      if (error.code === 'internal') this.log.error('websocket upgrade failed', { error: String(caught) });
      answerOnSocket(socket, error);
    }
  }

  private accept(ws: WebSocket, userId: string, sessionId: string, tellCount: boolean): void {
    const capacity = { messages: this.config.queueCapacity, bytes: this.config.queueBytes };
    const connection = new Connection(ws, userId, sessionId, capacity, tellCount);
    this.connections.add(connection);
    // In the same turn as joining the connections: every event counted after this one is carried on the socket.
    if (tellCount) {
      const opened: EventMessage<'socket.opened'> = {
        type: 'socket.opened',
        at: Date.now(),
        payload: { event_count: this.eventCounts.of(userId) },
      };
      connection.send(JSON.stringify(opened));
    }
    ws.on('pong', () => (connection.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => this.connections.delete(connection));
    // One token could otherwise open sockets (each with its queue) until the server runs out.
    this.closeOldest((c) => c.sessionId === sessionId, this.config.maxPerSession);
    this.closeOldest((c) => c.userId === userId, this.config.maxPerAccount);
  }

  /** Keeps the newest `max` connections that match; the older ones are closed and forgotten. */
  private closeOldest(match: (c: Connection) => boolean, max: number): void {
    const matching = [...this.connections].filter(match); // a Set iterates in insertion order: oldest first
    for (const old of matching.slice(0, Math.max(0, matching.length - max))) {
      this.connections.delete(old);
      old.socket.close(CLOSE_TOO_MANY_CONNECTIONS, 'too many connections: a newer one replaced this one');
      setTimeout(() => old.socket.terminate(), CLOSE_GRACE_MS).unref();
    }
  }

  private deliver(event: BusEvent): void {
    const text = JSON.stringify(event.message);
    // For the sockets that asked, the account's count beside it (the bus counted this event before telling listeners).
    const counted = (userId: string) => `${text.slice(0, -1)},"event_count":${JSON.stringify(this.eventCounts.of(userId))}}`;
    const revoked =
      event.message.type === 'session.revoked' ? (event.message.payload as EventPayloads['session.revoked']).session_id : null;
    for (const connection of this.connections) {
      if (!isInAudience(event.audience, connection.userId)) continue;
      const message = connection.countsEvents ? counted(connection.userId) : text;
      if (revoked !== null && connection.sessionId === revoked) {
        connection.sendAndClose(message, CLOSE_SESSION_REVOKED, 'session revoked', 5_000);
      } else {
        connection.send(message);
      }
    }
  }

  /** A peer that missed a whole heartbeat period is gone (sleeping phone, dead Wi-Fi). */
  private beat(): void {
    for (const connection of this.connections) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
    }
  }
}

/**
 * What `ws` would refuse with an HTML page, refused first with the envelope. The subprotocol
 * and extension offers are dropped instead of parsed: the server uses neither, and `ws`
 * answers a malformed one with HTML too.
 */
function checkHandshake(req: IncomingMessage): void {
  if (req.method !== 'GET') throw new AppError('method_not_allowed', 'The WebSocket handshake is a GET.', { headers: { Allow: 'GET' } });
  if (req.httpVersion === '1.1' && !req.headers.host) throw new AppError('malformed_request', 'HTTP/1.1 requests need a Host header.');
  if ((req.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
    throw new AppError('invalid_handshake', 'This endpoint upgrades to WebSocket only (Upgrade: websocket).');
  }
  const version = req.headers['sec-websocket-version'];
  if (version !== '13' && version !== '8') {
    throw new AppError('websocket_version_unsupported', undefined, { headers: { 'Sec-WebSocket-Version': '13' } });
  }
  if (!/^[+/0-9A-Za-z]{22}==$/.test(req.headers['sec-websocket-key'] ?? '')) {
    throw new AppError('invalid_handshake', 'Sec-WebSocket-Key must be 16 random bytes in base64.');
  }
  delete req.headers['sec-websocket-protocol'];
  delete req.headers['sec-websocket-extensions'];
}

/** Serves an upgrade request on another path through the HTTP app, then closes the connection. */
function answerWithoutUpgrade(req: IncomingMessage, socket: Duplex, handle: (req: IncomingMessage, res: ServerResponse) => void): void {
  const res = new ServerResponse(req);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  res.on('finish', () => {
    res.detachSocket(socket as Socket);
    socket.end(() => socket.destroy());
  });
  handle(req, res);
}
