export { BrowsePage } from './BrowsePage.tsx';
export { fileKeys } from './queries.ts';
export { DetailsDialog } from './dialogs.tsx';
export { useNodeAction } from './mutations.ts';
