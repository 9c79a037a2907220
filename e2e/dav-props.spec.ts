import { captureScreen } from './support/screens.ts';
import { expect, signIn, test } from './support/fixtures.ts';

test('what a computer keeps on a folder over WebDAV (PROPPATCH) comes back on the folder and on its copy, which appears live in My files', async ({
  page,
  member,
  hearth,
}, testInfo) => {
  const made = await hearth.api.ok('POST', '/me/dav-passwords', member.access, { name: "Mum's laptop" });
  const authorization = `Basic ${Buffer.from(`${member.username}:${made.password}`).toString('base64')}`;
  const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    fetch(`${hearth.url}/dav/${path}`, {
      method,
      headers: { Authorization: authorization, ...headers },
      ...(body !== undefined && { body }),
    });
  const label = '<F:label xmlns:F="urn:example:finder" xml:lang="en">Holiday <F:colour>green</F:colour></F:label>';
  const labelOf = async (path: string) => {
    const res = await dav(
      'PROPFIND',
      path,
      { Depth: '0' },
      '<D:propfind xmlns:D="DAV:"><D:prop><F:label xmlns:F="urn:example:finder"/></D:prop></D:propfind>',
    );
    expect(res.status).toBe(207);
    return /<F:label[\s\S]*<\/F:label>/.exec(await res.text())?.[0];
  };

  await signIn(page, member);
  const list = page.getByRole('list', { name: 'Files and folders' });
  expect((await dav('MKCOL', 'Summer')).status).toBe(201);
  expect((await dav('PUT', 'Summer/notes.txt', {}, 'sand')).status).toBe(201);
  const patched = await dav(
    'PROPPATCH',
    'Summer/',
    {},
    `<D:propertyupdate xmlns:D="DAV:"><D:set><D:prop>${label}</D:prop></D:set></D:propertyupdate>`,
  );
  expect(patched.status).toBe(207);
  expect(await patched.text()).toContain('HTTP/1.1 200 OK');
  expect(await labelOf('Summer/')).toBe('<F:label xmlns:F="urn:example:finder" xml:lang="en">Holiday <F:colour>green</F:colour></F:label>');

  expect((await dav('COPY', 'Summer/', { Destination: `${hearth.url}/dav/Summer%20copy/` })).status).toBe(201);
  await expect(list.getByText('Summer copy')).toBeVisible();
  expect(await labelOf('Summer%20copy/')).toBe(await labelOf('Summer/'));
  await captureScreen(page, testInfo, 'dav-props-copy');
});
