import { sha256Of } from './sha256.ts';

/** One file to hash, and its answer: the worker keeps the page's thread free for scrolling. */
export interface HashRequest {
  id: number;
  file: File;
}
export type HashAnswer = { id: number; hash: string } | { id: number; error: string };

self.onmessage = async (event: MessageEvent<HashRequest>) => {
  const { id, file } = event.data;
  try {
    const hash = await sha256Of(file);
    self.postMessage({ id, hash } satisfies HashAnswer);
  } catch (caught) {
    self.postMessage({ id, error: caught instanceof Error ? caught.message : String(caught) } satisfies HashAnswer);
  }
};
