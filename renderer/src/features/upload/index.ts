export { UploadButton } from './UploadButton.tsx';
export { UploadPanel } from './UploadPanel.tsx';
export { uploadQueue } from './queue.ts';
