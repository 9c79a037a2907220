import { OWNER } from '../../server/test/helpers/accounts.ts';
import type { ApiClient } from '../../server/test/helpers/server.ts';

/** The option `--dav-<name>=N` (the dav benches' own; run.ts leaves options to the benches). */
export function davOption(name: string, fallback: number): number {
  const prefix = `--dav-${name}=`;
  const option = process.argv.find((arg) => arg.startsWith(prefix));
  if (!option) return fallback;
  const value = Number(option.slice(prefix.length));
  if (!Number.isInteger(value) || value < 1) throw new Error(`${prefix} wants a whole number of at least 1, not ${option}`);
  return value;
}

/** A drive password for the owner, made through the API; the Basic header a drive sends with it. */
export async function driveAuth(client: ApiClient, token: string): Promise<string> {
  const res = await client.post('/me/dav-passwords', { name: 'Bench computer' }, { token });
  if (res.status !== 201) throw new Error(`a drive password was refused: ${res.status} ${JSON.stringify(res.body)}`);
  return `Basic ${Buffer.from(`${OWNER.username}:${res.body.password}`).toString('base64')}`;
}

/** The drive password alone (rclone and davfs2 take it apart from the username). */
export function passwordOf(auth: string): string {
  const decoded = Buffer.from(auth.slice('Basic '.length), 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}
