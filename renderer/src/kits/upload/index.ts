export { UploadButton } from './UploadButton.tsx';
export { UploadPanel } from './UploadPanel.tsx';
export { UnsentBanner } from './UnsentBanner.tsx';
export { QuotaBar } from './QuotaBar.tsx';
export { uploadQueue } from './queue.ts';
export { useLeftBehind, useUploads } from './useUploads.ts';
export type { Unsent } from './manifest.ts';
export type { UploadItem } from './queue.ts';
export { useKeepOpenSaidElsewhere, useSaysKeepOpen } from './keep-open.ts';
