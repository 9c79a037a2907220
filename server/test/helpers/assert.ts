import assert from 'node:assert/strict';
import type { ApiResponse } from './server.ts';

/** The response is the error envelope with this status and code (and field, when given). */
export function assertError(res: ApiResponse, status: number, code: string, field?: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.match(res.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(res.body?.error?.code, code, JSON.stringify(res.body));
  assert.equal(typeof res.body.error.message, 'string');
  assert.ok(res.body.error.message.length > 0);
  if (field !== undefined) assert.equal(res.body.error.field, field, JSON.stringify(res.body));
}
