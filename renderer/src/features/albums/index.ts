import { lazy } from 'react';

// Pages and the dialog load when first opened: albums are no part of the first screen.
export const AlbumsPage = lazy(() => import('./AlbumsPage.tsx').then((m) => ({ default: m.AlbumsPage })));
export const AlbumPage = lazy(() => import('./AlbumPage.tsx').then((m) => ({ default: m.AlbumPage })));
export const AddToAlbumDialog = lazy(() => import('./AddToAlbumDialog.tsx').then((m) => ({ default: m.AddToAlbumDialog })));
export type { AddToAlbumDialogProps } from './AddToAlbumDialog.tsx';
// A selection shared as a new album, from Photos or an album: its Share opens on the Link tab.
export const ShareAsAlbumDialog = lazy(() => import('./ShareAsAlbumDialog.tsx').then((m) => ({ default: m.ShareAsAlbumDialog })));
export type { ShareAsAlbumDialogProps } from './ShareAsAlbumDialog.tsx';
// What a selection is called in a sentence ("this photo", "3 photos"), for the actions on it.
export { selectionWords } from './words.ts';
