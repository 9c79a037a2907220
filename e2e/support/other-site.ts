import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Another website, on a loopback port of its own and named `localhost` (another site than the
 * app's 127.0.0.1): a page that, when its one button is tapped, makes a file in script and
 * posts it to Hearth's Share target, as any site the family visits could. `/hidden` hides its
 * origin and referrer (Referrer-Policy: no-referrer).
 */
export async function startOtherSite(shareTarget: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const hidden = request.url === '/hidden';
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...(hidden ? { 'Referrer-Policy': 'no-referrer' } : {}) });
    response.end(`<!doctype html>
<title>Win a prize</title>
<form id="drop" method="post" enctype="multipart/form-data" action="${shareTarget}">
  <input type="file" name="files" hidden>
  <button type="button" id="win">Win a prize</button>
</form>
<script>
  document.getElementById('win').addEventListener('click', () => {
    const files = new DataTransfer();
    files.items.add(new File(['not a photo'], 'prize.apk', { type: 'application/vnd.android.package-archive' }));
    document.querySelector('input[name=files]').files = files.files;
    document.getElementById('drop').submit();
  });
</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
