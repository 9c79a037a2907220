export { BrowsePage } from './BrowsePage.tsx';
export { DetailsDialog } from './dialogs.tsx';
export { useNodeAction } from './mutations.ts';
export { FolderPicker } from './FolderPicker.tsx';
