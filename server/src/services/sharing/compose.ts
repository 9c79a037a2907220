import type { ServiceDeps } from '../common/context.ts';
import type { AlbumAccess } from '../files/album-access.ts';
import type { FileServices } from '../files/compose.ts';
import { PartnerService } from './partners.ts';
import { PublicShareService } from './public-shares.ts';
import { SharingService } from './sharing.ts';

export interface SharingServices {
  sharing: SharingService;
  /** Partner sharing: an account's photos in another's Photos, from a day on. */
  partners: PartnerService;
  publicShares: PublicShareService;
}

/** Grants, links and partners: what one account shares with others and with visitors. */
export function sharingServices(deps: ServiceDeps, link: Buffer, files: FileServices, albumAccess: AlbumAccess): SharingServices {
  return {
    sharing: new SharingService(deps, files.access, link, albumAccess),
    partners: new PartnerService(deps),
    publicShares: new PublicShareService(deps, files.files, files.listing, link, files.albums),
  };
}
