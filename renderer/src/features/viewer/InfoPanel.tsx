import { useEffect, useRef } from 'react';
import { IconButton } from '../../ui/Button.tsx';
import { formatBytes } from '../../ui/format.ts';
import { formatLocalFull, formatTakenFull } from './dates.ts';
import { isVideo, type DetailLine, type ViewerItem } from './types.ts';

/** What a file is, in words: "JPEG photo", "MP4 video". */
function kindOf(item: ViewerItem): string {
  const subtype = (item.mime_type?.split('/')[1] ?? '').replace(/^x-/, '');
  const names: Record<string, string> = { jpeg: 'JPEG', quicktime: 'QuickTime (.mov)', 'svg+xml': 'SVG', 'x-matroska': 'MKV' };
  const name = names[subtype] ?? subtype.toUpperCase();
  return `${name ? `${name} ` : ''}${isVideo(item) ? 'video' : 'photo'}`;
}

/** The details of the photo on screen: a side panel on a wide screen, a sheet from the bottom on a phone. */
export function InfoPanel({ item, extra, onClose }: { item: ViewerItem; extra: DetailLine[]; onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const lines: DetailLine[] = [
    ...(item.taken_at !== undefined ? [{ label: 'Taken', value: formatTakenFull(item.taken_at) }] : []),
    { label: 'Uploaded', value: formatLocalFull(item.created_at) },
    { label: 'Size', value: formatBytes(item.size) },
    ...(item.image_width && item.image_height ? [{ label: 'Dimensions', value: `${item.image_width} × ${item.image_height} pixels` }] : []),
    { label: 'Kind', value: kindOf(item) },
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
        {lines.map((line) => (
          <div key={line.label} className="viewer-info-line">
            <dt>{line.label}</dt>
            <dd>{line.value}</dd>
          </div>
        ))}
      </dl>
    </aside>
  );
}
