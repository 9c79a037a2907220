import type { AdminUser, Me, PublicUser, UserSummary } from '../../contract/identity-responses.ts';
import type { UserRow } from '../../store/database/users.repo.ts';

export function toUserSummary(user: UserRow): UserSummary {
  return {
    id: user.id,
    username: user.username,
    role: user.role,
    display_name: user.display_name,
    avatar_seed: user.avatar_seed,
    must_change_password: user.must_change_password,
    totp_enabled: user.totp_secret !== null,
    phone_start: user.phone_start,
  };
}

/** `used`: what the quota counts of the account (quotaUsed). */
export function toMe(user: UserRow, used: number): Me {
  return { ...toUserSummary(user), quota: { used, limit: user.quota_bytes } };
}

export function toAdminUser(user: UserRow, used: number, mainOwnerId: string | undefined): AdminUser {
  return { ...toMe(user, used), disabled: user.disabled, created_at: user.created_at, main_owner: user.id === mainOwnerId };
}

export function toPublicUser(user: UserRow): PublicUser {
  return { id: user.id, name: user.display_name ?? user.username, avatar_seed: user.avatar_seed };
}
