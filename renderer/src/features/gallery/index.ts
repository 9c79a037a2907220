export { GalleryPage } from './GalleryPage.tsx';
export { galleryKeys } from './queries.ts';
// The pieces albums show their photos with: the same tiles, grid and viewer links as the timeline.
export { Tile } from './Tile.tsx';
export { columnsFor, GAP } from './layout.ts';
export { useOffsetTop, useWidth } from './useListPlacement.ts';
export { downloadFile, renewExpiredMedia, useMediaLinks } from './media.ts';
export { noteScrolling, peekThumbnail, useGalleryThumbnail } from './thumbs.ts';
export type { Selection } from './useSelection.ts';
// The trash of a selection (ask, progress, Undo): an album trashes its owner's photos with it too.
export { useTrash } from './trash.tsx';
