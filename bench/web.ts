import type { BenchResult } from './lib/report.ts';
import { benchWebGallery } from './web-gallery.ts';

/**
 * `npm run bench -- web`: the web app in Chromium. Each part keeps its own file and function
 * (the gallery's is web-gallery.ts), and this puts their figures in one result.
 */
export async function benchWeb(): Promise<BenchResult> {
  const parts = [await benchWebGallery()];
  return { name: 'web', rows: parts.flatMap((part) => part.rows), notes: parts.flatMap((part) => part.notes) };
}
