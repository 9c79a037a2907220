import { findExecutable } from '../../platform/run.ts';
import { DEFAULT_MEDIA_LIMITS } from '../../media/media-info.ts';
import type { ServiceDeps } from '../common/context.ts';
import type { FileCore } from '../files/compose.ts';
import type { ServiceParts } from '../parts.ts';
import type { SettingsService } from '../server/settings.ts';
import type { FamilyFirst } from '../common/family-first.ts';
import { AlbumAccess } from './album-access.ts';
import { AlbumMemberService } from './album-members.ts';
import { AlbumUploads } from './album-uploads.ts';
import { AlbumService } from './albums.ts';
import { GalleryService } from './gallery.ts';
import { MediaService } from './media.ts';
import { FaceEvents } from './face-events.ts';
import { FaceFindingService, storedFaceChoice } from './face-finding.ts';
import { FacePace } from './face-pacing.ts';
import { FaceScanner } from './face-scanner.ts';
import { PeopleService } from './people.ts';
import { PhotoAppearances } from './photo-appearances.ts';
import { EditedPhotoService } from './edited-photo.ts';
import { PhotoEditService } from './photo-edits.ts';
import { PlaybackQueue } from './playback-queue.ts';
import { PlaybackRoom } from './playback-room.ts';
import { PlaybackService } from './playback.ts';

export interface PhotoServices {
  gallery: GalleryService;
  /** Albums: photos and videos gathered by reference, in time order. */
  albums: AlbumService;
  /** Who an album is shared with (viewers, contributors), and leaving one. */
  albumMembers: AlbumMemberService;
  /** Photos sent straight into an album: the uploader's folder for them, and adding each as it completes. */
  albumUploads: AlbumUploads;
  photoAppearances: PhotoAppearances;
  /** A photo turned, its date or place corrected: kept beside the original. */
  photoEdits: PhotoEditService;
  /** "Download as edited": a photo made again, turned, its corrected date and place in its EXIF. */
  editedPhotos: EditedPhotoService;
  media: MediaService;
  /** Playback copies of videos some browsers cannot play, made in the background after thumbnails. */
  playback: PlaybackService;
  /** Faces found in the background, grouped into each account's people. */
  faceScanner: FaceScanner;
  /** The owner's view of face finding, its pause and its speed. */
  faceFinding: FaceFindingService;
  people: PeopleService;
}

/** What photos hands back besides its services: the album access sharing grants by, and the copies' queue files wakes. */
export interface PhotoInnards {
  albumAccess: AlbumAccess;
  playbackQueue: PlaybackQueue;
}

/** Photos, built on files: albums, the timeline, thumbnails and playback copies. */
export function photoServices(
  deps: ServiceDeps,
  { content, storage, thumbs, mediaTools }: ServiceParts,
  settings: SettingsService,
  { access, nodes, files }: FileCore,
  familyFirst: FamilyFirst,
): PhotoServices & PhotoInnards {
  const albumAccess = new AlbumAccess(deps);
  const albums = new AlbumService(deps, access, albumAccess);
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
  const faceEvents = new FaceEvents(deps, access);
  const facePace = new FacePace(storedFaceChoice(deps));
  const faceScanner = new FaceScanner(
    deps,
    content,
    thumbs,
    { idle: () => media.idle(), busy: () => media.busy() },
    familyFirst,
    faceEvents,
    facePace,
  );
  return {
    faceScanner,
    faceFinding: new FaceFindingService(deps, facePace),
    people: new PeopleService(deps, access, faceScanner, faceEvents),
    albumAccess,
    playbackQueue,
    albums,
    media,
    gallery: new GalleryService(deps),
    albumUploads: new AlbumUploads(deps, albumAccess, nodes),
    albumMembers: new AlbumMemberService(deps, albumAccess, albums),
    photoAppearances: new PhotoAppearances(deps, access, albumAccess, albums),
    photoEdits: new PhotoEditService(deps, access),
    editedPhotos: new EditedPhotoService(files, content, mediaTools, DEFAULT_MEDIA_LIMITS),
    playback: new PlaybackService(deps, access, playbackQueue, copyRoom, mediaTools.ffmpeg !== null, copiesOn),
  };
}
