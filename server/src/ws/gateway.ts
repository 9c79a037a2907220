import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { ServerConfig } from '../config.ts';
import type { EventPayloads } from '../contract/events.ts';
import { AppError } from '../errors.ts';
import { isInAudience, type BusEvent, type EventBus } from '../events/bus.ts';
import type { Logger } from '../log.ts';
import type { SessionService } from '../services/sessions.ts';
import { bearerToken } from '../http/bearer.ts';
import { API_PREFIX } from '../http/paths.ts';
import type { HostAllowList } from '../http/host-allow-list.ts';
import { Connection } from './connection.ts';

const WS_PATH = `${API_PREFIX}/ws`;
/** Close code telling the client its session ended and reconnecting is pointless. */
export const CLOSE_SESSION_REVOKED = 4001;

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

  constructor(
    server: Server,
    bus: EventBus,
    private readonly sessions: SessionService,
    private readonly config: ServerConfig['ws'],
    private readonly log: Logger,
    private readonly hosts: HostAllowList,
  ) {
    this.wss = new WebSocketServer({ noServer: true, maxPayload: config.maxPayloadBytes });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(req, socket, head));
    this.unsubscribe = bus.subscribe((event) => this.deliver(event));
    this.heartbeat = setInterval(() => this.beat(), config.heartbeatMs);
    this.heartbeat.unref();
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Per-connection queue figures, for tests and diagnostics. */
  stats(): { userId: string; queued: number; dropped: number }[] {
    return [...this.connections].map((c) => ({ userId: c.userId, queued: c.queued, dropped: c.dropped }));
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
    try {
      // A rebound page must not open the event channel either (see HostAllowList).
      if (!this.hosts.allows(req.headers.host)) throw new AppError('misdirected_request');
      if (url.pathname !== WS_PATH) throw new AppError('not_found', 'No such endpoint.');
      const token = bearerToken('GET', '/ws', req.headers, url.searchParams);
      if (token === null) throw new AppError('unauthorized');
      const actor = this.sessions.authenticate(token);
      if (actor.scope !== 'full') throw new AppError('pending_approval');
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, actor.userId, actor.sessionId));
    } catch (caught) {
      const error = caught instanceof AppError ? caught : new AppError('internal');
      if (error.code === 'internal') this.log.error('websocket upgrade failed', { error: String(caught) });
      refuse(socket, error);
    }
  }

  private accept(ws: WebSocket, userId: string, sessionId: string): void {
    const connection = new Connection(ws, userId, sessionId, this.config.queueCapacity);
    this.connections.add(connection);
    ws.on('pong', () => (connection.alive = true));
    ws.on('error', () => ws.terminate());
    ws.on('close', () => this.connections.delete(connection));
  }

  private deliver(event: BusEvent): void {
    const text = JSON.stringify(event.message);
    const revoked =
      event.message.type === 'session.revoked' ? (event.message.payload as EventPayloads['session.revoked']).session_id : null;
    for (const connection of this.connections) {
      if (!isInAudience(event.audience, connection.userId)) continue;
      if (revoked !== null && connection.sessionId === revoked) {
        connection.sendAndClose(text, CLOSE_SESSION_REVOKED, 'session revoked', 5_000);
      } else {
        connection.send(text);
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

function refuse(socket: Duplex, error: AppError): void {
  const body = JSON.stringify(error.toBody());
  socket.end(
    `HTTP/1.1 ${error.status} ${statusText(error.status)}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Referrer-Policy: no-referrer\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}

function statusText(status: number): string {
  return { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 421: 'Misdirected Request', 500: 'Internal Server Error' }[status] ?? 'Error';
}
