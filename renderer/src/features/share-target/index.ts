export { SaveSharedPage } from './SaveSharedPage.tsx';
