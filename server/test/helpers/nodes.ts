import assert from 'node:assert/strict';
import type { SignedIn } from './accounts.ts';
import type { ApiClient } from './server.ts';

let counter = 0;

/** A name no other test uses, so tests sharing an account never collide. */
export function unique(prefix: string): string {
  return `${prefix} ${++counter}`;
}

/** Creates a folder (201 expected) and returns the node. */
export async function createFolder(client: ApiClient, who: SignedIn, name: string, parentId?: string | null): Promise<any> {
  const body: Record<string, unknown> = { name };
  if (parentId !== undefined) body.parent_id = parentId;
  const res = await client.post('/nodes/folder', body, { token: who.access });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}
