/**
 * `npm run docs:openapi`: writes docs/openapi.json, the committed copy of the document the
 * server serves at /api/v1/openapi.json (a test keeps the two equal), for readers who have
 * only the repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../server/src/http/openapi.ts';
import { ROUTES } from '../server/src/http/routes.ts';

export const OPENAPI_COPY = path.join(import.meta.dirname, '..', 'docs', 'openapi.json');

export function openApiText(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

if (process.argv[1] === import.meta.filename) {
  fs.writeFileSync(OPENAPI_COPY, openApiText(openApiDocument(ROUTES)));
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_COPY)}`);
}
