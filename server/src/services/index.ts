import type { ServiceDeps } from './context.ts';
import { AccountService } from './accounts.ts';
import { AdminUserService } from './admin-users.ts';
import { AuthService } from './auth.ts';
import { DeviceService } from './devices.ts';
import { InviteService } from './invites.ts';
import { SessionService } from './sessions.ts';
import { SettingsService } from './settings.ts';
import { StatusService } from './status.ts';
import { TwoFactorService } from './two-factor.ts';
import { AccessService } from './access.ts';
import { ActivityService } from './activity.ts';
import { FileService } from './files.ts';
import { IdempotencyService } from './idempotency.ts';
import { ListingService } from './listing.ts';
import { GalleryService } from './gallery.ts';
import { NodeService } from './nodes.ts';
import { UploadService } from './uploads.ts';
import type { ContentStores } from '../store/content-stores.ts';
import { PublicShareService } from './public-shares.ts';
import { SharingService } from './sharing.ts';
import { MediaService } from './media.ts';
import { LibraryService } from './libraries.ts';
import { DriveService } from './drives.ts';
import { DriveMounts } from './drive-mounts.ts';
import { NetworkService } from './network.ts';
import { LocalOwnerService } from './local-owner.ts';
import type { ThumbnailStore } from '../store/thumbs.ts';
import { DEFAULT_MEDIA_LIMITS, type MediaTools } from '../media/processor.ts';
import type { PublicOrigin } from './public-origin.ts';
import { SecretBox } from './secret-box.ts';

export interface Services {
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
  files: FileService;
  uploads: UploadService;
  idempotency: IdempotencyService;
  sharing: SharingService;
  publicShares: PublicShareService;
  media: MediaService;
  libraries: LibraryService;
  drives: DriveService;
  network: NetworkService;
  localOwner: LocalOwnerService;
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
}

export function createServices(deps: ServiceDeps, { serverId, content, keys, thumbs, mediaTools, origin }: ServiceParts): Services {
  const settings = new SettingsService(deps, () => origin.reach());
  const sessions = new SessionService(deps, keys.pairing);
  const twoFactor = new TwoFactorService(deps, settings, new SecretBox(keys.totp));
  const access = new AccessService(deps);
  const activity = new ActivityService(deps);
  const nodes = new NodeService(deps, access, activity, content);
  const files = new FileService(deps, access, activity, nodes, content);
  const listing = new ListingService(deps, access, settings);
  const mounts = new DriveMounts(deps);
  const libraries = new LibraryService(deps, content, mounts);
  return {
    origin,
    access,
    activity,
    nodes,
    files,
    listing,
    gallery: new GalleryService(deps),
    sharing: new SharingService(deps, access, keys.link),
    publicShares: new PublicShareService(deps, files, listing, keys.link),
    libraries,
    drives: new DriveService(deps, libraries, mounts),
    network: new NetworkService(),
    localOwner: new LocalOwnerService(deps, sessions),
    media: new MediaService(deps, access, content, thumbs, mediaTools, DEFAULT_MEDIA_LIMITS, deps.config.mediaConcurrency),
    uploads: new UploadService(deps, access, files, content),
    idempotency: new IdempotencyService(deps),
    status: new StatusService(deps, settings, serverId),
    settings,
    sessions,
    auth: new AuthService(deps, sessions, settings, twoFactor),
    twoFactor,
    devices: new DeviceService(deps, sessions),
    accounts: new AccountService(deps, sessions),
    adminUsers: new AdminUserService(deps, sessions),
    invites: new InviteService(deps),
  };
}
