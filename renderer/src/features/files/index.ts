export { BrowsePage } from './BrowsePage.tsx';
