import { findExecutable } from '../../platform/run.ts';
import { DEFAULT_MEDIA_LIMITS } from '../../media/processor.ts';
import type { BackupService } from '../backup/backups.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FamilyFirst } from '../common/family-first.ts';
import type { SessionService } from '../identity/sessions.ts';
import type { ServiceParts } from '../parts.ts';
import type { SettingsService } from '../server/settings.ts';
import { AccessService } from './access.ts';
import { ActivityService } from './activity.ts';
import { AlbumAccess } from './album-access.ts';
import { AlbumMemberService } from './album-members.ts';
import { AlbumUploads } from './album-uploads.ts';
import { AlbumService } from './albums.ts';
import { ContentCheckService } from './content-check.ts';
import { ContentIndexService } from './content-index.ts';
import { ContentMerge } from './content-merge.ts';
import { FileService } from './files.ts';
import { GalleryService } from './gallery.ts';
import { ListingService } from './listing.ts';
import { MediaService } from './media.ts';
import { NodeAccessService } from './node-access.ts';
import { NodeService } from './nodes.ts';
import { PhotoAppearances } from './photo-appearances.ts';
import { PlaybackQueue } from './playback-queue.ts';
import { PlaybackRoom } from './playback-room.ts';
import { PlaybackService } from './playback.ts';
import { ContentUpkeep } from './reconcile.ts';
import { UploadService } from './uploads.ts';
import { ZipDownloadService } from './zip-downloads.ts';

export interface FileServices {
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
  media: MediaService;
  /** Playback copies of videos some browsers cannot play, made in the background after thumbnails. */
  playback: PlaybackService;
  /** Start-up reconciliation of files and rows, and the holding folder's upkeep. */
  contentUpkeep: ContentUpkeep;
}

/** What the file services are made with from other domains. */
export interface FileNeeds {
  settings: SettingsService;
  sessions: SessionService;
  familyFirst: FamilyFirst;
  /** A backup under way reads the content files: merges wait for it. */
  backup: BackupService;
}

/**
 * The family's files and photos: folders, versions, uploads, albums, thumbnails and playback
 * copies, zips. Answers the album access too, which sharing grants by (it is no service of its own).
 */
export function fileServices(
  deps: ServiceDeps,
  { content, storage, thumbs, mediaTools }: ServiceParts,
  { settings, sessions, familyFirst, backup }: FileNeeds,
): FileServices & { albumAccess: AlbumAccess } {
  const access = new AccessService(deps);
  const activity = new ActivityService(deps);
  const nodes = new NodeService(deps, access, activity, content);
  const files = new FileService(deps, access, activity, nodes, content);
  const listing = new ListingService(deps, access, settings);
  const albumAccess = new AlbumAccess(deps);
  const albums = new AlbumService(deps, access, albumAccess);
  const albumUploads = new AlbumUploads(deps, albumAccess, nodes);
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
  return {
    albumAccess,
    access,
    activity,
    nodes,
    files,
    listing,
    albums,
    albumUploads,
    media,
    zipDownloads,
    contentMerge,
    albumMembers: new AlbumMemberService(deps, albumAccess, albums),
    photoAppearances: new PhotoAppearances(deps, access, albumAccess, albums),
    nodeAccess: new NodeAccessService(deps, access, sessions, () => settings.current().session_tokens_in_urls),
    gallery: new GalleryService(deps),
    contentCheck: new ContentCheckService(deps),
    contentIndex: new ContentIndexService(deps, content, familyFirst, contentMerge),
    playback: new PlaybackService(deps, access, playbackQueue, copyRoom, mediaTools.ffmpeg !== null, copiesOn),
    uploads: new UploadService(deps, access, files, content, storage, albumUploads, contentMerge),
    contentUpkeep: new ContentUpkeep(deps, content),
  };
}
