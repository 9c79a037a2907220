import type { ViewerItem } from './types.ts';

type Camera = NonNullable<ViewerItem['camera']>;

/** Words companies add to a camera's make that nobody says: "NIKON CORPORATION" is a Nikon. */
const COMPANY = /[\s,]+(corporation|corp\.?|co\.,?\s*ltd\.?|company|inc\.?|imaging|optical)\b.*$/i;

/** "Google Pixel 8", "Canon EOS R6" (not "Canon Canon EOS R6"), "Apple iPhone 15". */
export function cameraName(camera: Camera | undefined): string | null {
  const make = camera?.make?.replace(COMPANY, '').trim();
  const model = camera?.model?.trim();
  if (!model) return make || null;
  if (!make) return model;
  const first = make.split(/\s+/)[0]!.toLowerCase();
  return model.toLowerCase().startsWith(first) ? model : `${make} ${model}`;
}

/** "1/120 s" for a fraction of a second, "0.5 s" or "2 s" for a long one. */
export function shutterSpeed(seconds: number): string {
  if (seconds < 0.3) return `1/${Math.round(1 / seconds)} s`;
  return `${Number(seconds.toFixed(1))} s`;
}

/** "f/1.7 · 1/120 s · ISO 50 · 6.9 mm": what the camera did, as photographers write it. */
export function exposureLine(camera: Camera | undefined): string | null {
  if (!camera) return null;
  const parts = [
    camera.f_number !== undefined && `f/${Number(camera.f_number.toFixed(1))}`,
    camera.exposure_time !== undefined && shutterSpeed(camera.exposure_time),
    camera.iso !== undefined && `ISO ${camera.iso}`,
    camera.focal_length !== undefined && `${Number(camera.focal_length.toFixed(1))} mm`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** "12 MP", "0.3 MP"; null for a picture too small to count in millions. */
export function megapixels(width: number, height: number): string | null {
  const mp = (width * height) / 1e6;
  if (mp < 0.1) return null;
  return `${mp >= 10 ? Math.round(mp) : Number(mp.toFixed(1))} MP`;
}
