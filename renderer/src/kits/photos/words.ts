import { plural } from '../../ui/format.ts';

type Named = { mime_type: string | null; type?: 'file' | 'folder' | string };

const kindOf = (item: Named): 'photo' | 'video' | 'file' | 'folder' => {
  if (item.type === 'folder') return 'folder';
  if (item.mime_type?.startsWith('video/')) return 'video';
  // Photos' own lists hold only photos and videos; elsewhere (Private) a node without a picture's type is a file.
  if (item.type === 'file' && !item.mime_type?.startsWith('image/')) return 'file';
  return 'photo';
};

/**
 * What selected photos are called in a sentence: "this photo", "this video", "3 photos", "2
 * photos and 1 video" (never "items"); where files and folders are chosen with them (Private),
 * "this file", "2 photos, 1 file and 1 folder".
 */
export function selectionWords(items: readonly Named[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(kindOf(item), (counts.get(kindOf(item)) ?? 0) + 1);
  if (items.length === 1) return `this ${kindOf(items[0]!)}`;
  const parts = (['photo', 'video', 'file', 'folder'] as const)
    .filter((kind) => counts.has(kind))
    .map((kind) => plural(counts.get(kind)!, kind));
  return parts.length <= 1 ? (parts[0] ?? plural(0, 'photo')) : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** "This photo …" at the start of a sentence. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
