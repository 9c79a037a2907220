import { lazy } from 'react';

// Pages and the dialogs load when first opened: albums are no part of the first screen.
export const AlbumsPage = lazy(() => import('./AlbumsPage.tsx').then((m) => ({ default: m.AlbumsPage })));
export const AlbumPage = lazy(() => import('./AlbumPage.tsx').then((m) => ({ default: m.AlbumPage })));
// The dialogs Photos' action bar opens (Add to album, Share): the app passes them to it.
export { albumDialogs } from './albumDialogs.ts';
