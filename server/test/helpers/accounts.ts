import assert from 'node:assert/strict';
import type { ApiClient } from './server.ts';

export const OWNER = { username: 'owner', password: 'owner-password-1' };

export interface SignedIn {
  access: string;
  refresh: string;
  sessionId: string;
  userId: string;
  username: string;
  password: string;
}

function signedIn(body: any, password: string): SignedIn {
  return {
    access: body.access_token,
    refresh: body.refresh_token,
    sessionId: body.session_id,
    userId: body.user.id,
    username: body.user.username,
    password,
  };
}

/** Runs first-time setup and returns the owner's (admin) session. */
export async function setupOwner(client: ApiClient, owner = OWNER): Promise<SignedIn> {
  const res = await client.post('/setup', owner);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return signedIn(res.body, owner.password);
}

export async function login(client: ApiClient, username: string, password: string, extra: object = {}): Promise<SignedIn> {
  const res = await client.post('/auth/login', { username, password, ...extra });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return signedIn(res.body, password);
}

/** An admin invites, the new account registers, then signs in. */
export async function createMember(
  client: ApiClient,
  admin: SignedIn,
  username: string,
  password = `${username}-password-1`,
  role: 'member' | 'admin' = 'member',
): Promise<SignedIn> {
  const invite = await client.post('/admin/invites', { role }, { token: admin.access });
  assert.equal(invite.status, 201, JSON.stringify(invite.body));
  const reg = await client.post('/auth/register', { username, password, invite_code: invite.body.code });
  assert.equal(reg.status, 201, JSON.stringify(reg.body));
  return login(client, username, password);
}
