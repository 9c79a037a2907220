export { PublicPage } from './PublicPage.tsx';
