import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { SHARE_TARGET_PATH } from '../../../src/http/static.ts';
import { makeTempDir, startTestServer, type TestServer } from '../../helpers/server.ts';

/*
 * Issue 30, finding 8: any website could post files to the Share target, as the phone's Share
 * menu does. When the post reaches the server (the app's service worker not running yet), the
 * browser's Sec-Fetch-Site says where it came from: another site's page (cross-site, or
 * same-site for another port or name of this host) is refused with the error envelope; the
 * Share menu's launch (none) and Hearth's own pages (same-origin) get the screen as before.
 */

let t: TestServer;
let webDir: string;
before(async () => {
  webDir = await makeTempDir('hearth-web-');
  await fs.writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Hearth</title>');
  t = await startTestServer({ webDir });
});
after(async () => {
  await t.close();
  await fs.rm(webDir, { recursive: true, force: true });
});

/** A multipart share as a browser posts it, with the Fetch Metadata it adds; over one kept-alive connection. */
function share(site: string | null, agent: http.Agent): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const boundary = '----hearth-share-test';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="beach.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
    // Big enough that the server answers before it has read it all: the answer must still arrive.
    Buffer.alloc(4 * 1024 * 1024, 7),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const headers: Record<string, string | number> = {
    'Content-Type': `multipart/form-data; boundary=${boundary}`,
    'Content-Length': body.length,
    'Sec-Fetch-Mode': 'navigate',
    'Sec-Fetch-Dest': 'document',
  };
  if (site !== null) headers['Sec-Fetch-Site'] = site;
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port: t.server.port, method: 'POST', path: SHARE_TARGET_PATH, headers, agent },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

test('a post from another site’s page is refused with share_from_other_site, and nothing of it is kept', async () => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const site of ['cross-site', 'same-site']) {
      const answer = await share(site, agent);
      assert.equal(answer.status, 403, site);
      assert.equal(JSON.parse(answer.body).error.code, 'share_from_other_site', site);
      assert.equal(answer.headers.location, undefined, `${site}: not sent to the app's screen`);
    }
    // The connection goes on serving: the refused share was drained, not left in the way.
    const after = await share('none', agent);
    assert.equal(after.status, 303);
  } finally {
    agent.destroy();
  }
  for (const name of await fs.readdir(t.dataDir, { recursive: true })) {
    const stat = await fs.stat(path.join(t.dataDir, String(name)));
    assert.ok(!stat.isFile() || stat.size < 4 * 1024 * 1024, String(name));
  }
});

test('the Share menu’s launch (none), Hearth’s own page (same-origin) and a browser that says nothing get the screen that says to share again', async () => {
  const agent = new http.Agent({ keepAlive: false });
  for (const site of ['none', 'same-origin', null]) {
    const answer = await share(site, agent);
    assert.equal(answer.status, 303, String(site));
    assert.equal(answer.headers.location, '/shared-with-hearth?share=missed', String(site));
  }
});
