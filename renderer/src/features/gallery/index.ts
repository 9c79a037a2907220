export { GalleryPage, type GalleryPageProps } from './GalleryPage.tsx';
export { galleryKeys } from './queries.ts';
