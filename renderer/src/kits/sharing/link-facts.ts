import { formatUntil } from './expiry.ts';
import type { ShareLink } from './queries.ts';

/** What a link allows, in a few words. */
export function linkFacts(link: ShareLink): string[] {
  const facts: string[] = [];
  if (!link.active && link.expires_at !== null) facts.push(`Expired ${formatUntil(link.expires_at)}`);
  else facts.push(link.expires_at === null ? 'No end date' : `Works until ${formatUntil(link.expires_at)}`);
  facts.push(link.password_protected ? 'Password needed' : 'No password');
  facts.push(link.allow_download ? 'Downloads allowed' : 'View only');
  return facts;
}
