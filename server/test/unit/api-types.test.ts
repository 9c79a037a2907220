import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { test } from 'node:test';
import { API_TYPES_FILE, generateApiTypes } from '../../../scripts/api-types.ts';

test("the web app's committed API types are exactly what the server's OpenAPI document describes (run npm run api:types)", async () => {
  const committed = await fs.readFile(API_TYPES_FILE, 'utf8');
  const described = await generateApiTypes();
  assert.ok(committed === described, 'renderer/src/api/schema.d.ts is stale: run `npm run api:types` and commit it');
});
