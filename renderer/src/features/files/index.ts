export { BrowsePage } from './BrowsePage.tsx';
export { fileKeys } from './queries.ts';
