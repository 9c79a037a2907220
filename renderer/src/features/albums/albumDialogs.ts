import { lazy } from 'react';
import type { SelectionDialogs } from '../../kits/photos/index.ts';

/**
 * The albums' dialogs for a selection of photos, given to the photo kit's action bar: by the app
 * for Photos, by an album for its own. They load when first opened.
 */
export const albumDialogs: SelectionDialogs = {
  AddToAlbum: lazy(() => import('./AddToAlbumDialog.tsx').then((m) => ({ default: m.AddToAlbumDialog }))),
  // A selection shared as a new album, from Photos or an album: its Share opens on the Link tab.
  ShareAsAlbum: lazy(() => import('./ShareAsAlbumDialog.tsx').then((m) => ({ default: m.ShareAsAlbumDialog }))),
};
