import type { Db } from './db.ts';
import { UsersRepo, RecoveryCodesRepo } from './users.repo.ts';
import { SessionsRepo, RefreshTokensRepo } from './sessions.repo.ts';
import { InvitesRepo } from './invites.repo.ts';
import { KeyValueRepo } from './kv.repo.ts';
import { RateEventsRepo } from './rate-events.repo.ts';
import { inTransaction } from './db.ts';
import { NodesRepo } from './nodes.repo.ts';
import { VersionsRepo } from './versions.repo.ts';
import { LibrariesRepo } from './libraries.repo.ts';
import { ActivityRepo, IdempotencyRepo } from './activity.repo.ts';
import { UploadsRepo } from './uploads.repo.ts';
import { PermissionsRepo, SharesRepo } from './sharing.repo.ts';
import { MediaRepo } from './media.repo.ts';
import { GalleryRepo } from './gallery.repo.ts';
import { OwnerRepo } from './owner.repo.ts';
import { GarbageRepo } from './garbage.repo.ts';
import { BackupRepo } from './backup.repo.ts';
import { ContentIndexRepo } from './content-index.repo.ts';
import { AlbumsRepo } from './albums.repo.ts';
import { DownloadsRepo } from './downloads.repo.ts';
import { PlaybackRepo } from './playback.repo.ts';
import { PartnersRepo } from './partners.repo.ts';

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
  downloads: DownloadsRepo;
  playback: PlaybackRepo;
  /** Accounts showing their photos in another's Photos (partner sharing). */
  partners: PartnersRepo;
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
    downloads: new DownloadsRepo(db),
    playback: new PlaybackRepo(db),
    partners: new PartnersRepo(db),
    transaction: (work) => inTransaction(db, work),
    ping: () => db.prepare('SELECT 1 AS ok').get() !== undefined,
  };
}
