import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, test } from 'node:test';
import { OPENAPI_COPY, openApiText } from '../../../../scripts/write-openapi.ts';
import { startTestServer, type TestServer } from '../../helpers/server.ts';

let t: TestServer;
before(async () => {
  t = await startTestServer();
});
after(() => t.close());

test('docs/openapi.json is the document the server serves, so a reader with only the repository reads the real API (npm run docs:openapi writes it again)', async () => {
  const served = await (await fetch(`${t.api}/openapi.json`)).json();
  const committed = fs.readFileSync(OPENAPI_COPY, 'utf8');
  assert.equal(committed, openApiText(served), 'docs/openapi.json differs from the served document: run `npm run docs:openapi`');
});
