import type { ServiceDeps } from '../common/context.ts';
import type { FamilyFirst } from '../common/family-first.ts';
import type { BackupService } from '../backup/backups.ts';
import type { SessionService } from '../identity/sessions.ts';
import type { ServiceParts } from '../parts.ts';
import type { SettingsService } from '../server/settings.ts';
import { AccessService } from './access.ts';
import { ActivityService } from './activity.ts';
import { ContentCheckService } from './content-check.ts';
import { ContentIndexService } from './content-index.ts';
import { ContentMerge } from './content-merge.ts';
import { DavPropertyService } from './dav-properties.ts';
import { FileService } from './files.ts';
import { ListingService, type GalleryFilters } from './listing.ts';
import { NodeAccessService } from './node-access.ts';
import { NodeService } from './nodes.ts';
import { PrivateFolderService } from './private-folder.ts';
import { ContentUpkeep } from './reconcile.ts';
import type { UploadTargets } from './upload-state.ts';
import { UploadService } from './uploads.ts';
import { ZipDownloadService } from './zip-downloads.ts';

/** The files themselves: what photos (photos/compose.ts) is built on. */
export interface FileCore {
  access: AccessService;
  activity: ActivityService;
  nodes: NodeService;
  listing: ListingService;
  files: FileService;
  /** Which contents an account holds, and which it deleted on purpose (phone backups). */
  contentCheck: ContentCheckService;
  /** Tokens for one node's URLs (download, thumbnail, preview). */
  nodeAccess: NodeAccessService;
  /** Start-up reconciliation of files and rows, and the holding folder's upkeep. */
  contentUpkeep: ContentUpkeep;
  /** Each account's locked Private folder: opening, locking, moving in and out. */
  privateFolder: PrivateFolderService;
  /** What drive clients keep on files and folders over WebDAV (PROPPATCH's dead properties). */
  davProperties: DavPropertyService;
}

/** Files coming and going: uploads, zips, and content files merged when their bytes are the same. */
export interface FileTransfers {
  /** The SHA-256 of versions stored by older releases, computed in the background; duplicates merged. */
  contentIndex: ContentIndexService;
  contentMerge: ContentMerge;
  /** Many files and folders as one zip, through a one-use ticket. */
  zipDownloads: ZipDownloadService;
  uploads: UploadService;
}

export type FileServices = FileCore & FileTransfers;

/** What the files are made with from other domains. */
export interface FileNeeds {
  settings: SettingsService;
  sessions: SessionService;
}

/**
 * What files asks of photos, which is built on files: given as ports the composition wires
 * (services/index.ts), so nothing in files imports photos.
 */
export interface PhotoPorts {
  /** Photos' search and months, which a folder's listing may filter by. */
  galleryFilters: GalleryFilters;
  /** Uploads that join an album as they complete. */
  uploadTargets: UploadTargets;
  /** Files with the same bytes were merged: playback copies follow their content. */
  contentMoved(): void;
}

/** Folders, versions, listings and node tokens: the family's files. */
export function fileCore(
  deps: ServiceDeps,
  { content }: ServiceParts,
  { settings, sessions }: FileNeeds,
  photos: Pick<PhotoPorts, 'galleryFilters'>,
): FileCore {
  const access = new AccessService(deps);
  const activity = new ActivityService(deps);
  const nodes = new NodeService(deps, access, activity, content);
  return {
    access,
    activity,
    nodes,
    files: new FileService(deps, access, activity, nodes, content),
    listing: new ListingService(deps, access, settings, photos.galleryFilters),
    contentCheck: new ContentCheckService(deps),
    nodeAccess: new NodeAccessService(deps, access, sessions, () => settings.current().session_tokens_in_urls),
    contentUpkeep: new ContentUpkeep(deps, content),
    privateFolder: new PrivateFolderService(deps, access, nodes),
    davProperties: new DavPropertyService(deps, access),
  };
}

/** What the transfers wait behind: a backup under way and the family's requests. */
export interface TransferNeeds {
  sessions: SessionService;
  familyFirst: FamilyFirst;
  /** A backup under way reads the content files: merges wait for it. */
  backup: BackupService;
}

export function fileTransfers(
  deps: ServiceDeps,
  { content, storage }: ServiceParts,
  { access, files }: FileCore,
  { sessions, familyFirst, backup }: TransferNeeds,
  photos: PhotoPorts,
): FileTransfers {
  const zipDownloads = new ZipDownloadService(deps, access, content, sessions);
  const contentMerge = new ContentMerge(deps, content, {
    filesInUse: () => backup.busy || zipDownloads.busy,
    merged: () => photos.contentMoved(),
  });
  return {
    zipDownloads,
    contentMerge,
    contentIndex: new ContentIndexService(deps, content, familyFirst, contentMerge),
    uploads: new UploadService(deps, access, files, content, storage, photos.uploadTargets, contentMerge),
  };
}
