import { lazy } from 'react';

// Pages and the dialog load when first opened: albums are no part of the first screen.
export const AlbumsPage = lazy(() => import('./AlbumsPage.tsx').then((m) => ({ default: m.AlbumsPage })));
export const AlbumPage = lazy(() => import('./AlbumPage.tsx').then((m) => ({ default: m.AlbumPage })));
export const AddToAlbumDialog = lazy(() => import('./AddToAlbumDialog.tsx').then((m) => ({ default: m.AddToAlbumDialog })));
export type { AddToAlbumDialogProps } from './AddToAlbumDialog.tsx';
