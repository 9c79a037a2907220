import { plural } from '../../ui/format.ts';

/** What selected photos are called in a sentence: "this photo", "this video", "3 photos", "2 photos and 1 video" (never "items"). */
export function selectionWords(items: readonly { mime_type: string | null }[]): string {
  const videos = items.filter((item) => item.mime_type?.startsWith('video/')).length;
  if (items.length === 1) return videos === 1 ? 'this video' : 'this photo';
  if (videos === 0) return plural(items.length, 'photo');
  if (videos === items.length) return plural(items.length, 'video');
  return `${plural(items.length - videos, 'photo')} and ${plural(videos, 'video')}`;
}

/** "This photo …" at the start of a sentence. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
