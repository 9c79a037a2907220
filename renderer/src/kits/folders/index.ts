// Choosing a folder and acting on nodes: the files pages, the photo actions, phone backup and
// the Share target all use them.
export { FolderPicker, type PickerChoice } from './FolderPicker.tsx';
export { useNodeAction, type Action, type BulkResult } from './node-actions.ts';
