import type { DavPassword, NewDavPassword } from '../../contract/dav-passwords-responses.ts';
import { cleanUsername } from '../../contract/usernames.ts';
import { AppError } from '../../app-error.ts';
import { storageFaultOf } from '../../store/common/storage-faults.ts';
import type { DavPasswordRow } from '../../store/database/dav-passwords.repo.ts';
import type { UserRow } from '../../store/database/users.repo.ts';
import type { Actor, ClientInfo, ServiceDeps } from '../common/context.ts';
import { addressKey } from '../common/rate-limiter.ts';
import { checkReadableName } from '../common/readable-names.ts';
import { hashSecret, newId, newTypableSecret, normaliseTypableSecret, safeEqual } from '../common/secrets.ts';

/** How many drive passwords one account may hold: one per computer, with room to spare. */
export const MAX_DAV_PASSWORDS = 20;
/** A name is shown on one line in Account's list, as a device's is. */
const MAX_NAME = 64;
/** "Last used" is bookkeeping: a drive sends its password with every request, and each need not be a write. */
const USED_WRITE_INTERVAL_MS = 60_000;
/** Longer than any drive password, however typed: refused without hashing a megabyte. */
const MAX_TYPED = 256;

/** What a WebDAV client sends in HTTP Basic. */
export interface DavCredentials {
  username: string;
  password: string;
}

/**
 * The account behind a drive password. It has no session: `sessionId` names the drive password
 * (`dav:<id>`), which no session row shares, so what a session unlocks (the Private folder)
 * stays locked over WebDAV.
 */
export interface DavActor extends Actor {
  davPasswordId: string;
}

/**
 * Drive passwords: each person makes one per computer that opens Hearth as a drive, sees when
 * each was last used and revokes any at once. The drive door (`verify`) takes only these, never
 * the account's own password: a WebDAV client cannot ask for a two-step code, so taking the
 * account password there would let whoever knows it around the second step.
 *
 * Each is 130 random bits (newTypableSecret: groups of letters and digits, easy to type from
 * the screen), so it is kept as its SHA-256 as refresh tokens and invite codes are, and checking
 * one costs a hash, not a scrypt: a drive sends it with every request.
 */
export class DavPasswordService {
  constructor(private readonly deps: ServiceDeps) {}

  /** A new drive password for the caller's account; the answer is the only time it is shown. */
  create(actor: Actor, input: { name: string }): NewDavPassword {
    const { store } = this.deps;
    const name = input.name.trim();
    const length = [...name].length;
    if (length < 1 || length > MAX_NAME) {
      throw new AppError('invalid_name', `Give the drive password a name of 1 to ${MAX_NAME} characters, such as the computer it is for.`, {
        field: 'name',
      });
    }
    checkReadableName(name, 'name');
    const password = newTypableSecret();
    const row = {
      id: newId(),
      user_id: actor.userId,
      name,
      password_hash: hashSecret(normaliseTypableSecret(password)),
      created_at: this.deps.now(),
    };
    // Counted inside the transaction: two racing requests cannot both take the last place.
    store.transaction(() => {
      if (store.davPasswords.countFor(actor.userId) >= MAX_DAV_PASSWORDS) throw new AppError('too_many_drive_passwords');
      store.davPasswords.insert(row);
    });
    this.deps.log.info('drive password made', { user_id: actor.userId, dav_password_id: row.id });
    return { id: row.id, name: row.name, password, created_at: row.created_at };
  }

  /** The caller's drive passwords, oldest first, without the passwords (they are not kept). */
  list(actor: Actor): DavPassword[] {
    return this.deps.store.davPasswords.listFor(actor.userId).map(toDavPassword);
  }

  /** Revokes one of the caller's drive passwords: the next request signed with it is refused. Another's is not there (404). */
  revoke(actor: Actor, id: string): void {
    if (!this.deps.store.davPasswords.remove(id, actor.userId)) throw new AppError('not_found');
    this.deps.log.info('drive password revoked', { user_id: actor.userId, dav_password_id: id });
  }

  /**
   * The account whose username and drive password a WebDAV client sent (HTTP Basic), else 401
   * `invalid_credentials`: the account password is refused here like any wrong one. Wrong
   * guesses count against the client's address with the sign-in limiter and its limits (429
   * `rate_limited` once full). The check, the count and the refusal run in one synchronous step,
   * so guesses sent in parallel all count. The address bucket is the drive's own (`dav:ip:`):
   * a computer whose drive still holds a revoked password, retrying as Finder and Explorer do,
   * must not lock that computer out of signing in to the app; and nothing guessed here can open
   * the account password, so the drive's allowance adds nothing to a guesser's at sign-in.
   * The account itself is never slowed: with 130 random bits there is nothing to slow, and a
   * stranger could otherwise stall the owner's drive. A disabled account (403) or one that must
   * change its password (403) is refused at once.
   */
  verify(credentials: DavCredentials, client: ClientInfo): DavActor {
    const { rateLimiter } = this.deps;
    const bucket = `dav:ip:${addressKey(client.ip)}`;
    rateLimiter.check([bucket]);
    const found = this.match(credentials);
    if (!found) {
      rateLimiter.fail([bucket]);
      throw new AppError('invalid_credentials');
    }
    const { user, row } = found;
    if (user.disabled) throw new AppError('account_disabled');
    if (user.must_change_password) throw new AppError('must_change_password');
    this.markUsed(row);
    return {
      userId: user.id,
      sessionId: `dav:${row.id}`,
      role: user.role,
      scope: 'full',
      mustChangePassword: false,
      davPasswordId: row.id,
    };
  }

  /**
   * The account and drive password the credentials name, or null. The password is hashed
   * whatever the username, and compared in constant time against each of the account's
   * (all of them, no early exit): the clock tells no one which part was wrong.
   */
  private match(credentials: DavCredentials): { user: UserRow; row: DavPasswordRow } | null {
    const { store } = this.deps;
    const typed = credentials.password.length > MAX_TYPED ? '' : normaliseTypableSecret(credentials.password);
    const hash = hashSecret(typed);
    const user = store.users.byUsername(cleanUsername(credentials.username));
    let found: DavPasswordRow | undefined;
    for (const row of user ? store.davPasswords.listFor(user.id) : []) {
      if (safeEqual(row.password_hash, hash) && found === undefined) found = row;
    }
    if (!user || !found || typed === '') return null;
    return { user, row: found };
  }

  private markUsed(row: DavPasswordRow): void {
    const now = this.deps.now();
    if (row.last_used_at !== null && now - row.last_used_at < USED_WRITE_INTERVAL_MS) return;
    try {
      this.deps.store.davPasswords.markUsed(row.id, now);
    } catch (error) {
      // Last use is bookkeeping: on a full disk the drive still opens.
      if (storageFaultOf(error) === null) throw error;
    }
  }
}

function toDavPassword(row: DavPasswordRow): DavPassword {
  return { id: row.id, name: row.name, created_at: row.created_at, last_used_at: row.last_used_at };
}
