import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { test } from 'node:test';
import { answerParserErrors } from '../../src/http/parser-errors.ts';
import { createLogger } from '../../src/log.ts';

/*
 * A request whose headers never finish (a slowloris) is answered 408 request_timeout in the
 * envelope and its connection closed. The server's own timeout is Node's default (a minute),
 * too long for a test: the same handler on a server with a short one shows the answer.
 */
test('headers that never finish are answered 408 request_timeout in the envelope, and the connection is closed', async () => {
  const server = http.createServer({ headersTimeout: 300, requestTimeout: 400, connectionsCheckingInterval: 50 }, (_req, res) =>
    res.end('ok'),
  );
  answerParserErrors(server, createLogger('silent'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await closed;
    assert.match(received, /^HTTP\/1\.1 408 /);
    const body = received.slice(received.indexOf('\r\n\r\n') + 4);
    assert.deepEqual(JSON.parse(body).error.code, 'request_timeout');
    assert.match(received, /connection: close/i);
  } finally {
    server.close();
  }
});
