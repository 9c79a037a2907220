import http from 'node:http';
import { ApiClient, type ApiResponse, type RequestOptions } from './server.ts';

/**
 * The API client, but every request leaves from a chosen loopback address (127.0.0.2,
 * 127.0.0.3, ...): the server sees different client addresses, as it would see a guesser
 * and the rightful user on two devices. Linux routes all of 127/8 to the loopback.
 */
export class ClientFrom extends ApiClient {
  constructor(
    base: string,
    readonly localAddress: string,
  ) {
    super(base);
  }

  override request<T = any>(method: string, route: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = new URL(this.base + route);
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
    let payload: string | Buffer | undefined = options.rawBody;
    if (payload === undefined && options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname + url.search, method, localAddress: this.localAddress, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            const responseHeaders = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (typeof v === 'string') responseHeaders.set(k, v);
            const json = (res.headers['content-type'] ?? '').includes('json') && text !== '';
            resolve({ status: res.statusCode!, headers: responseHeaders, body: (json ? JSON.parse(text) : text) as T });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }
}
