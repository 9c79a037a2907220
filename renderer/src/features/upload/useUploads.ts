import { useSyncExternalStore } from 'react';
import { uploadQueue, type UploadItem } from './queue.ts';

export function useUploads(): UploadItem[] {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.items);
}
