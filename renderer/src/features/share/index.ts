export { ShareDialog } from './ShareDialog.tsx';
export { SharedLinksPage } from './SharedLinksPage.tsx';
export { shareKeys } from './queries.ts';
export { SharedTabs } from './SharedTabs.tsx';
