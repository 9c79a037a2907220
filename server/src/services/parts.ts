import type { ContentStores } from '../store/content/content-stores.ts';
import type { ThumbnailStore } from '../store/content/thumbs.ts';
import type { MediaTools } from '../media/media-info.ts';
import type { PublicOrigin } from './server/public-origin.ts';
import type { Tailnet } from './server/tailnet.ts';
import type { HttpsCertificates } from './server/https-certificates.ts';
import type { StorageHealth } from './storage/storage-health.ts';

/** Server keys kept with the data: link tokens and unlock grants, TOTP sealing, pairing codes. */
export interface ServerKeys {
  link: Buffer;
  totp: Buffer;
  pairing: Buffer;
}

/** What the services are made with besides ServiceDeps: made by the server's composition (areas/compose.ts). */
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
