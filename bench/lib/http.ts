import http from 'node:http';

/**
 * One keep-alive connection; the time is to the last byte of the body. A request that found
 * its idle connection just closed by the server (keep-alive timeout) is sent again on a new one.
 */
export async function timedGet(
  agent: http.Agent,
  url: string,
  token: string | null,
): Promise<{ status: number; body: string; ms: number }> {
  try {
    return await getOnce(agent, url, token);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    return getOnce(agent, url, token);
  }
}

function getOnce(agent: http.Agent, url: string, token: string | null): Promise<{ status: number; body: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
      );
    });
    req.once('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`GET ${url} timed out`)));
  });
}
