export { GalleryPage } from './GalleryPage.tsx';
