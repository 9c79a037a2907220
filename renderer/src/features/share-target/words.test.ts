import { describe, expect, it } from 'vitest';
import { onlyPhotosAndVideos, sharedWords } from './words.ts';

const of = (...types: string[]) => types.map((type) => ({ type }));

describe('what a share holds, said as a family says it', () => {
  it('counts photos, videos and other files apart, one kind at a time or joined with "and"', () => {
    expect(sharedWords(of('image/jpeg'))).toBe('1 photo');
    expect(sharedWords(of('image/jpeg', 'image/heic', 'image/png'))).toBe('3 photos');
    expect(sharedWords(of('image/jpeg', 'video/mp4'))).toBe('1 photo and 1 video');
    expect(sharedWords(of('application/pdf', 'image/jpeg', 'video/mp4', 'image/png'))).toBe('2 photos, 1 video and 1 file');
    // A file the phone gives no type is a file, not a photo.
    expect(sharedWords(of(''))).toBe('1 file');
  });

  it('sends photos and videos where the phone backs up, and anything else to My files', () => {
    expect(onlyPhotosAndVideos(of('image/jpeg', 'video/quicktime'))).toBe(true);
    expect(onlyPhotosAndVideos(of('image/jpeg', 'application/pdf'))).toBe(false);
    expect(onlyPhotosAndVideos([])).toBe(false);
  });
});
