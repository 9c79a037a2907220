export { FilesPage } from './FilesPage.tsx';
export { fileKeys } from './queries.ts';
