import { plural } from '../../ui/format.ts';

/** What a share holds, in the words a family uses: "2 photos and 1 video", "1 file". */
export function sharedWords(files: readonly { type: string }[]): string {
  let photos = 0;
  let videos = 0;
  let others = 0;
  for (const file of files) {
    if (file.type.startsWith('image/')) photos += 1;
    else if (file.type.startsWith('video/')) videos += 1;
    else others += 1;
  }
  const parts = [
    photos > 0 ? plural(photos, 'photo') : null,
    videos > 0 ? plural(videos, 'video') : null,
    others > 0 ? plural(others, 'file') : null,
  ].filter((part): part is string => part !== null);
  if (parts.length === 0) return 'nothing';
  if (parts.length === 1) return parts[0]!;
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/** Photos and videos only: they go where this phone's photos go. */
export function onlyPhotosAndVideos(files: readonly { type: string }[]): boolean {
  return files.length > 0 && files.every((file) => /^(image|video)\//.test(file.type));
}
