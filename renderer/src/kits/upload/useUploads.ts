import { useSyncExternalStore } from 'react';
import type { Unsent } from './manifest.ts';
import { uploadQueue } from './queue.ts';

export function useUploads() {
  return useSyncExternalStore(uploadQueue.subscribe, uploadQueue.state);
}

/** What an earlier page left unsent (see UploadQueue.leftBehind); nothing while signed out. */
export function useLeftBehind(account: string | null): Unsent[] {
  return useSyncExternalStore(uploadQueue.subscribe, () => (account ? uploadQueue.leftBehind(account) : NONE));
}

const NONE: Unsent[] = [];
