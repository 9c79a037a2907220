export { GalleryPage } from './GalleryPage.tsx';
export { galleryKeys } from './queries.ts';
