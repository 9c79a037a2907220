import { useEffect, useRef } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { formatBytes } from '../../ui/format.ts';
import { formatLength, formatLocalFull, formatTakenFull, placeName } from './dates.ts';
import { cameraName, exposureLine, megapixels } from './camera.ts';
import { isVideo, type DetailLine, type ViewerItem } from './types.ts';

/** What a file is, in words: "JPEG photo", "MP4 video". */
function kindOf(item: ViewerItem): string {
  const subtype = (item.mime_type?.split('/')[1] ?? '').replace(/^x-/, '');
  const names: Record<string, string> = { jpeg: 'JPEG', quicktime: 'QuickTime (.mov)', 'svg+xml': 'SVG', 'x-matroska': 'MKV' };
  const name = names[subtype] ?? subtype.toUpperCase();
  return `${name ? `${name} ` : ''}${isVideo(item) ? 'video' : 'photo'}`;
}

/** "Lisbon, Portugal": the town and the country, as far as they are known. */
function placeLine(item: ViewerItem): string | null {
  if (!item.place) return null;
  const country = placeName({ place: { ...(item.place.country_code && { country_code: item.place.country_code }) } });
  const town = item.place.town;
  return [town, country].filter(Boolean).join(', ') || null;
}

/**
 * The details of the photo on screen: a side panel on a wide screen, a sheet from the bottom on
 * a phone. When and where it was taken, with what and how, and its size; no map, since a map
 * would need tiles from the internet and Hearth sends nothing there.
 */
export function InfoPanel({ item, extra, onClose }: { item: ViewerItem; extra: DetailLine[]; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const taken = formatTakenFull(item);
  const place = placeLine(item);
  const camera = cameraName(item.camera);
  const exposure = exposureLine(item.camera);
  const mp = item.image_width && item.image_height && !isVideo(item) ? megapixels(item.image_width, item.image_height) : null;
  const pixels = item.image_width && item.image_height ? `${item.image_width} × ${item.image_height} pixels${mp ? ` (${mp})` : ''}` : null;
  const line = (label: string, value: string | null | undefined): DetailLine[] => (value ? [{ label, value }] : []);
  const lines: DetailLine[] = [
    ...line('Taken', taken),
    ...line('Place', place),
    ...line('Length', item.duration_ms !== undefined ? formatLength(item.duration_ms) : null),
    ...line('Camera', camera),
    ...line('Lens', item.camera?.lens),
    ...line('Exposure', exposure),
    ...line('Dimensions', pixels),
    { label: 'Size', value: formatBytes(item.size) },
    { label: 'Kind', value: kindOf(item) },
    { label: 'Uploaded', value: formatLocalFull(item.created_at) },
    ...extra,
  ];
  return (
    <aside className="viewer-info" aria-labelledby="viewer-info-title">
      <header className="viewer-info-head">
        <h2 id="viewer-info-title" ref={heading} tabIndex={-1}>
          Details
        </h2>
        <IconButton icon="close" label="Close details" onClick={onClose} />
      </header>
      <p className="viewer-info-name">{item.name}</p>
      <dl>
        {lines.map((detail) => (
          <div key={detail.label} className="viewer-info-line">
            <dt>{detail.label}</dt>
            <dd>{detail.value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
