import type { Invite, InviteCheckResponse, Role } from '../../contract/identity-responses.ts';
import type { Page } from '../../contract/page.ts';
import { AppError } from '../../app-error.ts';
import type { InviteRow } from '../../store/database/invites.repo.ts';
import { requireAdmin, type Actor, type ServiceDeps } from '../common/context.ts';
import { keysetPage, type PageRequest } from '../common/paging.ts';
import { hashSecret, newId, newSecret } from '../common/secrets.ts';
import { checkReadableName } from '../common/readable-names.ts';

export interface InviteInput {
  expires_at?: number | null | undefined;
  max_uses?: number | null | undefined;
  role?: Role | undefined;
  label?: string | null | undefined;
}

/** Invites let the owner decide who may create an account. Codes are stored hashed. */
export class InviteService {
  constructor(private readonly deps: ServiceDeps) {}

  /** `origin`: where family devices reach the server (never the request's Host), for the invite's link. */
  create(actor: Actor, input: InviteInput, origin: string): Invite {
    requireAdmin(actor);
    const now = this.deps.now();
    if (input.expires_at != null && input.expires_at <= now) {
      throw new AppError('invalid_input', 'The expiry must be in the future.', { field: 'expires_at' });
    }
    const label = cleanLabel(input.label);
    const code = newSecret(18);
    const row = {
      id: newId(),
      code_hash: hashSecret(code),
      role: input.role ?? 'member',
      max_uses: input.max_uses === undefined ? 1 : input.max_uses,
      expires_at: input.expires_at ?? null,
      label,
      created_by: actor.userId,
      created_at: now,
    };
    this.deps.store.invites.insert(row);
    return { ...toInvite({ ...row, uses: 0 }), code, url: `${origin}/invite/${encodeURIComponent(code)}` };
  }

  list(actor: Actor, page: PageRequest): Page<Invite> {
    requireAdmin(actor);
    return keysetPage(
      page,
      (after, limit) => this.deps.store.invites.page(after, limit),
      (r) => r.id,
      toInvite,
    );
  }

  remove(actor: Actor, id: string): void {
    requireAdmin(actor);
    if (!this.deps.store.invites.remove(id)) throw new AppError('not_found');
  }

  check(code: string): InviteCheckResponse {
    const invite = this.deps.store.invites.byHash(hashSecret(code.trim()));
    const now = this.deps.now();
    const valid =
      invite !== undefined &&
      (invite.expires_at === null || invite.expires_at > now) &&
      (invite.max_uses === null || invite.uses < invite.max_uses);
    return valid && invite.expires_at !== null ? { valid, expires_at: invite.expires_at } : { valid };
  }
}

function toInvite(row: InviteRow): Invite {
  return {
    id: row.id,
    role: row.role,
    max_uses: row.max_uses,
    uses: row.uses,
    expires_at: row.expires_at,
    created_at: row.created_at,
    created_by: row.created_by,
    label: row.label,
  };
}

/** The owner's note of who an invite is for: shown back to the owner only, yet a name a person reads. */
function cleanLabel(raw: string | null | undefined): string | null {
  const label = raw?.normalize('NFC').trim() ?? '';
  if (label === '') return null;
  checkReadableName(label, 'label');
  if ([...label].length > 64) throw new AppError('invalid_name', 'A label is up to 64 characters.', { field: 'label' });
  return label;
}
