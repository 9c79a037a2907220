import type { ServiceDeps } from './common/context.ts';
import { AccountService } from './identity/accounts.ts';
import { AdminUserService } from './identity/admin-users.ts';
import { AuthService } from './identity/auth.ts';
import { DeviceService } from './identity/devices.ts';
import { InviteService } from './identity/invites.ts';
import { SessionService } from './identity/sessions.ts';
import { SettingsService } from './server/settings.ts';
import { StatusService } from './server/status.ts';
import { TwoFactorService } from './identity/two-factor.ts';
import { AccessService } from './files/access.ts';
import { ActivityService } from './files/activity.ts';
import { FileService } from './files/files.ts';
import { IdempotencyService } from './common/idempotency.ts';
import { ListingService } from './files/listing.ts';
import { galleryFilters, GalleryService } from './photos/gallery.ts';
import { ContentCheckService } from './files/content-check.ts';
import { NodeService } from './files/nodes.ts';
import { UploadService } from './files/uploads.ts';
import type { ContentStores } from '../store/content-stores.ts';
import { PublicShareService } from './sharing/public-shares.ts';
import { SharingService } from './sharing/sharing.ts';
import { PartnerService } from './sharing/partners.ts';
import { MediaService } from './photos/media.ts';
import { PlaybackService } from './photos/playback.ts';
import { PlaybackQueue } from './photos/playback-queue.ts';
import { findExecutable } from '../platform/run.ts';
import { LibraryService } from './storage/libraries.ts';
import { DriveService } from './storage/drives.ts';
import { DriveMounts } from './storage/drive-mounts.ts';
import { NetworkService } from './server/network.ts';
import { HomeAuthorityService } from './server/home-authority.ts';
import { HomeHttps } from './server/home-https.ts';
import { localLabel } from './server/home-names.ts';
import type { HttpsCertificates } from './server/https-certificates.ts';
import { LocalOwnerService } from './identity/local-owner.ts';
import { OwnerService } from './identity/owner.ts';
import { OwnerRecoveryService } from './identity/owner-recovery.ts';
import { SetupGate } from './identity/setup-gate.ts';
import type { ThumbnailStore } from '../store/thumbs.ts';
import { DEFAULT_MEDIA_LIMITS, type MediaTools } from '../media/media-info.ts';
import type { PublicOrigin } from './server/public-origin.ts';
import type { Tailnet } from './server/tailnet.ts';
import { SecretBox } from './common/secret-box.ts';
import { NodeAccessService } from './files/node-access.ts';
import { ZipDownloadService } from './files/zip-downloads.ts';
import type { StorageHealth } from './storage/storage-health.ts';
import { ContentUpkeep } from './files/reconcile.ts';
import { BackupService } from './backup/backups.ts';
import { BackupHealthService } from './backup/backup-health.ts';
import { EmergencyKitService } from './backup/emergency-kit.ts';
import { RestoreService } from './backup/restore.ts';
import { ContentIndexService } from './files/content-index.ts';
import { ContentMerge } from './files/content-merge.ts';
import { PlaybackRoom } from './photos/playback-room.ts';
import { FamilyFirst } from './common/family-first.ts';
import { ItemRestoreService } from './backup/restore-item.ts';
import { SnapshotFilesService } from './backup/snapshot-files.ts';
import { BackupKeyFile } from '../store/backup-key.ts';
import { BackupSecrets } from '../store/backup-secrets.ts';
import { SnapshotDbCache } from '../store/snapshot-db.ts';
import { AlbumAccess } from './photos/album-access.ts';
import { AlbumService } from './photos/albums.ts';
import { PhotoAppearances } from './photos/photo-appearances.ts';
import { AlbumMemberService } from './photos/album-members.ts';
import { AlbumUploads } from './photos/album-uploads.ts';

export interface Services {
  /** Requests being answered, which background work (backups) waits behind. */
  familyFirst: FamilyFirst;
  /** Where family devices reach the server, for the URLs it hands out. */
  origin: PublicOrigin;
  status: StatusService;
  settings: SettingsService;
  sessions: SessionService;
  auth: AuthService;
  twoFactor: TwoFactorService;
  devices: DeviceService;
  accounts: AccountService;
  adminUsers: AdminUserService;
  invites: InviteService;
  access: AccessService;
  activity: ActivityService;
  nodes: NodeService;
  listing: ListingService;
  gallery: GalleryService;
  /** Which contents an account holds, and which it deleted on purpose (phone backups). */
  contentCheck: ContentCheckService;
  /** The SHA-256 of versions stored by older releases, computed in the background; duplicates merged. */
  contentIndex: ContentIndexService;
  contentMerge: ContentMerge;
  files: FileService;
  /** Albums: photos and videos gathered by reference, in time order. */
  albums: AlbumService;
  /** Who an album is shared with (viewers, contributors), and leaving one. */
  albumMembers: AlbumMemberService;
  /** Photos sent straight into an album: the uploader's folder for them, and adding each as it completes. */
  albumUploads: AlbumUploads;
  photoAppearances: PhotoAppearances;
  /** Many files and folders as one zip, through a one-use ticket. */
  zipDownloads: ZipDownloadService;
  /** Tokens for one node's URLs (download, thumbnail, preview). */
  nodeAccess: NodeAccessService;
  uploads: UploadService;
  idempotency: IdempotencyService;
  sharing: SharingService;
  /** Partner sharing: an account's photos in another's Photos, from a day on. */
  partners: PartnerService;
  publicShares: PublicShareService;
  media: MediaService;
  /** Playback copies of videos some browsers cannot play, made in the background after thumbnails. */
  playback: PlaybackService;
  libraries: LibraryService;
  drives: DriveService;
  network: NetworkService;
  /** HTTPS at home as phones meet it: the authority to install, and where a trusting phone goes. */
  homeHttps: HomeHttps;
  homeAuthority: HomeAuthorityService;
  localOwner: LocalOwnerService;
  owner: OwnerService;
  ownerRecovery: OwnerRecoveryService;
  setupGate: SetupGate;
  /** Whether the disks take writes: a full or read-only one is answered 507/503, never 500. */
  storage: StorageHealth;
  /** Start-up reconciliation of files and rows, and the holding folder's upkeep. */
  contentUpkeep: ContentUpkeep;
  /** Backups to folders: destinations, runs, verify, snapshots and retention. */
  backup: BackupService;
  /** Whether backups are overdue, for the console's header and the tray. */
  backupHealth: BackupHealthService;
  /** The family's files as they were in a snapshot, for the owner to browse. */
  snapshotFiles: SnapshotFilesService;
  /** One file or folder back from a snapshot, beside the current one or in its place. */
  itemRestore: ItemRestoreService;
  /** Snapshot databases copied out for browsing: closed and removed when the server stops. */
  snapshotDbs: SnapshotDbCache;
  /** Whether the owner kept the emergency kit, and the reminder until they do. */
  backupKit: EmergencyKitService;
  /** A fresh install brought back from a backup (setup/restore). */
  restore: RestoreService;
}

/** Server keys kept with the data: link tokens and unlock grants, TOTP sealing, pairing codes. */
export interface ServerKeys {
  link: Buffer;
  totp: Buffer;
  pairing: Buffer;
}

export interface ServiceParts {
  serverId: string;
  content: ContentStores;
  keys: ServerKeys;
  thumbs: ThumbnailStore;
  mediaTools: MediaTools;
  origin: PublicOrigin;
  storage: StorageHealth;
  /** Tailscale on this PC, for the console's "Away from home"; absent where nothing looks (tests of other parts). */
  tailnet?: Tailnet;
  /** The home network's certificates; null when HTTPS is off. */
  httpsCertificates?: HttpsCertificates | null;
  /** The `.local` name announced now (LocalName.current): what the Connect page offers first. */
  localName?: () => string | null;
  /** Stops the server and starts it again on a restored data folder (index.ts); a no-op where nothing hosts a restart. */
  restart?: () => void;
}

export function createServices(
  deps: ServiceDeps,
  {
    serverId,
    content,
    keys,
    thumbs,
    mediaTools,
    origin,
    storage,
    tailnet,
    httpsCertificates = null,
    localName,
    restart = () => {},
  }: ServiceParts,
): Services {
  const settings = new SettingsService(deps, () => origin.reach());
  const sessions = new SessionService(deps, keys.pairing);
  const twoFactor = new TwoFactorService(deps, settings, new SecretBox(keys.totp));
  const access = new AccessService(deps);
  const activity = new ActivityService(deps);
  const nodes = new NodeService(deps, access, activity, content);
  const files = new FileService(deps, access, activity, nodes, content);
  const listing = new ListingService(deps, access, settings, galleryFilters);
  const albumAccess = new AlbumAccess(deps);
  const albums = new AlbumService(deps, access, albumAccess);
  const albumUploads = new AlbumUploads(deps, albumAccess, nodes);
  const mounts = new DriveMounts(deps);
  const owner = new OwnerService(deps);
  const setupGate = new SetupGate(deps, deps.config.hostedSetup);
  const libraries = new LibraryService(deps, content, mounts);
  const restore = new RestoreService(deps, setupGate, restart);
  const familyFirst = new FamilyFirst();
  const backup = new BackupService(deps, content, serverId, familyFirst);
  const media = new MediaService(deps, access, content, thumbs, mediaTools, DEFAULT_MEDIA_LIMITS, deps.config.mediaConcurrency, storage);
  const copiesOn = () => settings.current().make_playback_copies;
  const copyRoom = new PlaybackRoom(deps, {
    room: (ownerId) => files.remainingQuota(ownerId, deps.store.uploads.pendingBytes(ownerId)),
    changed: (ownerId) => nodes.publishQuota(ownerId),
  });
  const playbackQueue = new PlaybackQueue(
    deps,
    access,
    content,
    mediaTools,
    { idle: () => media.idle(), busy: () => media.busy() },
    storage,
    copiesOn,
    { nice: findExecutable('nice'), ionice: findExecutable('ionice'), prlimit: mediaTools.prlimit },
    copyRoom,
  );
  const zipDownloads = new ZipDownloadService(deps, access, content, sessions);
  const contentMerge = new ContentMerge(deps, content, {
    filesInUse: () => backup.busy || zipDownloads.busy,
    merged: () => playbackQueue.contentMoved(),
  });
  const snapshotDbs = new SnapshotDbCache(deps.config.dataDir, deps.config.sqliteEngine);
  const snapshotFiles = new SnapshotFilesService(
    deps,
    new BackupKeyFile(deps.config.dataDir),
    snapshotDbs,
    new BackupSecrets(deps.config.dataDir),
  );
  return {
    familyFirst,
    origin,
    access,
    activity,
    nodes,
    files,
    albums,
    albumMembers: new AlbumMemberService(deps, albumAccess, albums),
    albumUploads,
    photoAppearances: new PhotoAppearances(deps, access, albumAccess, albums),
    nodeAccess: new NodeAccessService(deps, access, sessions, () => settings.current().session_tokens_in_urls),
    zipDownloads,
    listing,
    gallery: new GalleryService(deps),
    contentCheck: new ContentCheckService(deps),
    contentIndex: new ContentIndexService(deps, content, familyFirst, contentMerge),
    contentMerge,
    sharing: new SharingService(deps, access, keys.link, albumAccess),
    partners: new PartnerService(deps),
    publicShares: new PublicShareService(deps, files, listing, keys.link, albums),
    libraries,
    drives: new DriveService(deps, libraries, mounts),
    network: new NetworkService(deps.config, tailnet ?? null, localName),
    homeHttps: new HomeHttps(
      httpsCertificates,
      () => settings.current().server_name,
      deps.config.webDir,
      () => localName?.() ?? `${localLabel(settings.current().server_name)}.local`,
    ),
    homeAuthority: new HomeAuthorityService(httpsCertificates),
    localOwner: new LocalOwnerService(deps, sessions, owner),
    owner,
    ownerRecovery: new OwnerRecoveryService(deps, owner, sessions),
    setupGate,
    media,
    playback: new PlaybackService(deps, access, playbackQueue, copyRoom, mediaTools.ffmpeg !== null, copiesOn),
    uploads: new UploadService(deps, access, files, content, storage, albumUploads, contentMerge),
    idempotency: new IdempotencyService(deps),
    status: new StatusService(deps, settings, serverId, setupGate, storage, () => restore.restoring),
    storage,
    settings,
    sessions,
    auth: new AuthService(deps, sessions, settings, twoFactor, setupGate),
    twoFactor,
    devices: new DeviceService(deps, sessions),
    accounts: new AccountService(deps, sessions),
    adminUsers: new AdminUserService(deps, sessions, owner),
    invites: new InviteService(deps),
    contentUpkeep: new ContentUpkeep(deps, content),
    backup,
    snapshotFiles,
    snapshotDbs,
    itemRestore: new ItemRestoreService(deps, snapshotFiles, backup, files, nodes, access, activity, content, storage),
    backupHealth: new BackupHealthService(deps),
    backupKit: new EmergencyKitService(deps),
    restore,
  };
}
