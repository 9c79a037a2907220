import { useSyncExternalStore } from 'react';
import { uploadQueue } from './queue.ts';

export function useUploads() {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.state);
}
