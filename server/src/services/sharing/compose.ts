import type { ServiceDeps } from '../common/context.ts';
import type { FileCore } from '../files/compose.ts';
import type { PhotoInnards, PhotoServices } from '../photos/compose.ts';
import { KeepCopyService } from './keep-copies.ts';
import { PartnerService } from './partners.ts';
import { PublicShareService } from './public-shares.ts';
import { SharedWithMeService } from './shared-with-me.ts';
import { SharingService } from './sharing.ts';

export interface SharingServices {
  sharing: SharingService;
  /** Partner sharing: an account's photos in another's Photos, from a day on. */
  partners: PartnerService;
  publicShares: PublicShareService;
  /** Everything shared with an account (grants, albums, partners), newest first: the Shared page. */
  sharedWithMe: SharedWithMeService;
  /** Keep a copy of what someone shared: the caller's own file, by content, on its quota. */
  keepCopies: KeepCopyService;
}

/** Grants, links and partners: what one account shares with others and with visitors. */
export function sharingServices(
  deps: ServiceDeps,
  link: Buffer,
  files: FileCore,
  photos: Pick<PhotoServices, 'albums'> & Pick<PhotoInnards, 'albumAccess'>,
): SharingServices {
  const publicShares = new PublicShareService(deps, files.files, files.listing, link, photos.albums);
  return {
    sharing: new SharingService(deps, files.access, link, photos.albumAccess),
    partners: new PartnerService(deps),
    publicShares,
    sharedWithMe: new SharedWithMeService(deps, photos.albums),
    keepCopies: new KeepCopyService(deps, files.access, files.files, files.nodes, publicShares),
  };
}
