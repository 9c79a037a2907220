import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AppError } from '../app-error.ts';

/** The headers every answer carries (see middleware/security-headers.ts), for answers written outside Koa. */
const SECURITY_HEADERS: Record<string, string> = {
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cache-Control': 'no-store',
};

/**
 * An error envelope written straight onto a socket, for what never reaches Koa: bytes the
 * HTTP parser refused and WebSocket handshakes. The connection is closed after it: whatever
 * follows on it cannot be trusted to be framed as the client meant.
 */
export function answerOnSocket(socket: Duplex, error: AppError): void {
  const { headers, body } = closingEnvelope(error);
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}\r\n${head}\r\n${body}`, () => socket.destroy());
}

/** The envelope of `error` and the headers that go with it, closing the connection. */
export function closingEnvelope(error: AppError): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    ...SECURITY_HEADERS,
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  return { headers, body };
}
