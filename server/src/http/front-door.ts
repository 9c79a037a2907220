import type http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Logger } from '../log.ts';

/** A TLS connection opens with a handshake record; HTTP opens with a method's letters. */
const TLS_HANDSHAKE = 0x16;
/** A connection that says nothing is let go: it would otherwise hold a socket forever. */
const FIRST_BYTE_WITHIN_MS = 10_000;

export interface KeyAndCert {
  key: string | Buffer;
  cert: string | Buffer;
}

export interface FrontDoor {
  /** The socket that listens: plain HTTP and HTTPS arrive on the same port. */
  server: net.Server;
  /** Takes the current certificate (or the first one); connections already open keep theirs. */
  useCertificate(options: { key: string; cert: string } | null): void;
  /** Ends connections still deciding which they are (the HTTP server ends the rest). */
  close(): void;
}

/**
 * HTTP and HTTPS on one port, told apart by the first byte of each connection. One port
 * because HSTS keeps the port: a phone told to use HTTPS for `hearth.local` turns
 * `http://hearth.local:8420` into `https://hearth.local:8420` by itself, so both must answer
 * there, and nobody opens a second port in a firewall. TLS connections, once their handshake
 * is done, are handed to the same HTTP server: one app, one WebSocket gateway, one set of limits.
 */
export function createFrontDoor(
  httpServer: http.Server,
  log: Logger,
  certificateFor: (servername: string) => KeyAndCert | null = () => null,
): FrontDoor {
  // A name with a certificate of its own (the tailnet name's, from `tailscale cert`); any other
  // name, and a phone that typed an address (no name sent), gets Hearth's own certificate.
  let cached: { cert: string | Buffer; context: tls.SecureContext } | null = null;
  const tlsServer = new tls.Server({
    minVersion: 'TLSv1.2',
    ALPNProtocols: ['http/1.1'],
    handshakeTimeout: FIRST_BYTE_WITHIN_MS,
    SNICallback: (servername, callback) => {
      const own = certificateFor(servername.toLowerCase());
      if (own === null) return callback(null, undefined);
      if (cached === null || !sameBytes(cached.cert, own.cert)) {
        cached = { cert: own.cert, context: tls.createSecureContext({ key: own.key, cert: own.cert, minVersion: 'TLSv1.2' }) };
      }
      callback(null, cached.context);
    },
  });
  tlsServer.on('secureConnection', (socket) => httpServer.emit('connection', socket));
  // The HTTP server never listens itself (this door does), and Node starts an HTTP server's
  // connection tracking on its 'listening' event: without it closeAllConnections() would leave
  // keep-alive connections served by a closed server (after a restore's restart), and
  // headersTimeout and requestTimeout (slow clients holding sockets) would never be checked.
  httpServer.emit('listening');
  // A phone that does not trust the certificate yet ends the handshake: expected, not an error.
  tlsServer.on('tlsClientError', (error) => log.debug('tls handshake ended', { error: error.message }));
  const deciding = new Set<net.Socket>();

  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    deciding.add(socket);
    socket.setTimeout(FIRST_BYTE_WITHIN_MS, () => socket.destroy());
    socket.once('close', () => deciding.delete(socket));
    const decide = () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        if (!socket.destroyed) socket.once('readable', decide);
        return;
      }
      deciding.delete(socket);
      socket.setTimeout(0);
      socket.unshift(first);
      if (first[0] !== TLS_HANDSHAKE) httpServer.emit('connection', socket);
      else tlsServer.emit('connection', socket);
    };
    socket.on('error', () => socket.destroy());
    decide();
  });

  return {
    server,
    useCertificate(options) {
      if (options) tlsServer.setSecureContext({ ...options, minVersion: 'TLSv1.2' });
    },
    close() {
      for (const socket of deciding) socket.destroy();
      deciding.clear();
    },
  };
}

function sameBytes(a: string | Buffer, b: string | Buffer): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}
