import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '../app-error.ts';
import type { Logger } from '../log.ts';
import { answerOnSocket, closingEnvelope } from './raw-response.ts';

/**
 * Answers with the error envelope what Node's HTTP parser refuses before any route sees it
 * (oversized headers, smuggling-shaped framing, control bytes, other protocols), and an
 * `Expect` other than 100-continue. Node's own answers are a bare status with no body, or
 * none at all. The connection is closed: after a framing error nothing on it can be trusted.
 */
export function answerParserErrors(server: Server, log: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already on its way cannot be followed by another on the same connection.
    const inFlight = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    log.debug('request refused by the HTTP parser', { code: error.code ?? null });
    answerOnSocket(socket, parserError(error));
  });

  server.on('checkExpectation', (_req: IncomingMessage, res: ServerResponse) => {
    const error = new AppError('expectation_failed');
    const { headers, body } = closingEnvelope(error);
    res.writeHead(error.status, headers);
    res.end(body);
  });
}

/** llhttp's error codes (and Node's timeouts) onto catalogue codes. */
export function parserError(error: NodeJS.ErrnoException): AppError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new AppError('headers_too_large');
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new AppError('payload_too_large');
    case 'HPE_PAUSED_H2_UPGRADE':
      return new AppError(
        'http_version_unsupported',
        'This server speaks HTTP/1.1, not HTTP/2 (use TLS ALPN or Upgrade: h2c, which it ignores).',
      );
    case 'HPE_HEADERS_TIMEOUT':
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new AppError('request_timeout');
    case 'HPE_INVALID_VERSION':
      // The same code covers a version that is not 1.x and a line ending that is not CRLF.
      if (/Invalid HTTP version/i.test(error.message)) return new AppError('http_version_unsupported');
      return new AppError('malformed_request', 'Lines end with CRLF in HTTP/1.1.');
    default:
      return new AppError('malformed_request');
  }
}
