export { UploadButton } from './UploadButton.tsx';
export { UploadPanel } from './UploadPanel.tsx';
export { UnsentBanner } from './UnsentBanner.tsx';
export { QuotaBar } from './QuotaBar.tsx';
export { uploadQueue } from './queue.ts';
export { useUploads } from './useUploads.ts';
