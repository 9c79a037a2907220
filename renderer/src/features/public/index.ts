export { PublicSharePage } from './PublicSharePage.tsx';
