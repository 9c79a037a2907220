import type { Db } from './database/db.ts';
import { UsersRepo, RecoveryCodesRepo } from './database/users.repo.ts';
import { SessionsRepo, RefreshTokensRepo } from './database/sessions.repo.ts';
import { InvitesRepo } from './database/invites.repo.ts';
import { KeyValueRepo } from './database/kv.repo.ts';
import { RateEventsRepo } from './database/rate-events.repo.ts';
import { inTransaction } from './database/db.ts';
import { NodesRepo } from './database/nodes.repo.ts';
import { VersionsRepo } from './database/versions.repo.ts';
import { LibrariesRepo } from './database/libraries.repo.ts';
import { ActivityRepo, IdempotencyRepo } from './database/activity.repo.ts';
import { UploadsRepo } from './database/uploads.repo.ts';
import { PermissionsRepo, SharesRepo } from './database/sharing.repo.ts';
import { MediaRepo } from './database/media.repo.ts';
import { GalleryRepo } from './database/gallery.repo.ts';
import { OwnerRepo } from './database/owner.repo.ts';
import { GarbageRepo } from './database/garbage.repo.ts';
import { BackupRepo } from './database/backup.repo.ts';
import { ContentIndexRepo } from './database/content-index.repo.ts';
import { AlbumRemovalsRepo } from './database/album-removals.repo.ts';
import { AlbumsRepo } from './database/albums.repo.ts';
import { PhotoEditsRepo } from './database/photo-edits.repo.ts';
import { DownloadsRepo } from './database/downloads.repo.ts';
import { PlaybackRepo } from './database/playback.repo.ts';
import { PartnersRepo } from './database/partners.repo.ts';
import { NotificationsRepo } from './database/notifications.repo.ts';
import { SharedWithMeRepo } from './database/shared-with-me.repo.ts';
import { PrivateRepo } from './database/private.repo.ts';
import { FacesRepo } from './database/faces.repo.ts';
import { ThingsRepo } from './database/things.repo.ts';
import { DavPasswordsRepo } from './database/dav-passwords.repo.ts';
import { DavPropertiesRepo } from './database/dav-properties.repo.ts';

/** Every repository over one database, plus the transaction boundary services use. */
export interface Store {
  users: UsersRepo;
  recoveryCodes: RecoveryCodesRepo;
  sessions: SessionsRepo;
  refreshTokens: RefreshTokensRepo;
  invites: InvitesRepo;
  settings: KeyValueRepo;
  meta: KeyValueRepo;
  rateEvents: RateEventsRepo;
  nodes: NodesRepo;
  versions: VersionsRepo;
  libraries: LibrariesRepo;
  activity: ActivityRepo;
  idempotency: IdempotencyRepo;
  uploads: UploadsRepo;
  permissions: PermissionsRepo;
  shares: SharesRepo;
  media: MediaRepo;
  gallery: GalleryRepo;
  owner: OwnerRepo;
  garbage: GarbageRepo;
  backup: BackupRepo;
  contentIndex: ContentIndexRepo;
  albums: AlbumsRepo;
  /** Members taken out of an album, kept while the owner may still undo it. */
  albumRemovals: AlbumRemovalsRepo;
  /** A photo's turn, date and place as the family corrected them, beside what its file says. */
  photoEdits: PhotoEditsRepo;
  downloads: DownloadsRepo;
  playback: PlaybackRepo;
  /** Accounts showing their photos in another's Photos (partner sharing). */
  partners: PartnersRepo;
  /** What each account is told, its choice of kinds, and its browsers' push subscriptions. */
  notifications: NotificationsRepo;
  /** Every way something reaches an account (grants, albums, partners), newest first. */
  sharedWithMe: SharedWithMeRepo;
  /** Each account's Private folder, what is in it, and the sessions that opened it. */
  privateFolders: PrivateRepo;
  /** Faces found in photos, the people they are grouped into, and which pictures were looked at. */
  faces: FacesRepo;
  /** Things (a dog, a boat) found in photos, and which pictures were looked at for them. */
  things: ThingsRepo;
  /** Drive passwords: WebDAV sign-in, one per computer, kept hashed. */
  davPasswords: DavPasswordsRepo;
  /** WebDAV dead properties (PROPPATCH), by node. */
  davProperties: DavPropertiesRepo;
  transaction<T>(work: () => T): T;
  ping(): boolean;
}

export function createStore(db: Db): Store {
  return {
    users: new UsersRepo(db),
    recoveryCodes: new RecoveryCodesRepo(db),
    sessions: new SessionsRepo(db),
    refreshTokens: new RefreshTokensRepo(db),
    invites: new InvitesRepo(db),
    settings: new KeyValueRepo(db, 'settings'),
    meta: new KeyValueRepo(db, 'meta'),
    rateEvents: new RateEventsRepo(db),
    nodes: new NodesRepo(db),
    versions: new VersionsRepo(db),
    libraries: new LibrariesRepo(db),
    activity: new ActivityRepo(db),
    idempotency: new IdempotencyRepo(db),
    uploads: new UploadsRepo(db),
    permissions: new PermissionsRepo(db),
    shares: new SharesRepo(db),
    media: new MediaRepo(db),
    gallery: new GalleryRepo(db),
    owner: new OwnerRepo(db),
    garbage: new GarbageRepo(db),
    backup: new BackupRepo(db),
    contentIndex: new ContentIndexRepo(db),
    albums: new AlbumsRepo(db),
    albumRemovals: new AlbumRemovalsRepo(db),
    photoEdits: new PhotoEditsRepo(db),
    downloads: new DownloadsRepo(db),
    playback: new PlaybackRepo(db),
    partners: new PartnersRepo(db),
    notifications: new NotificationsRepo(db),
    sharedWithMe: new SharedWithMeRepo(db),
    privateFolders: new PrivateRepo(db),
    faces: new FacesRepo(db),
    things: new ThingsRepo(db),
    davPasswords: new DavPasswordsRepo(db),
    davProperties: new DavPropertiesRepo(db),
    transaction: (work) => inTransaction(db, work),
    ping: () => db.prepare('SELECT 1 AS ok').get() !== undefined,
  };
}
