import { useThumbnail } from '../../api/thumbnails.ts';
import { turnBox, type FaceBox } from './faces.ts';

/** Room around the face, a share of its box on each side: a portrait, not only the nose. */
const MARGIN = 0.12;

/**
 * A face cut out of its photo's thumbnail: the picture scaled and moved so the face fills a
 * circle (People's covers, a person's faces, the viewer's people).
 */
export function FaceCrop({
  nodeId,
  version,
  box,
  rotation,
  className,
}: {
  nodeId: string;
  version: number;
  box: FaceBox;
  rotation?: number | undefined;
  className?: string | undefined;
}) {
  const url = useThumbnail({ id: nodeId, version, has_thumbnail: true, ...(rotation ? { rotation } : {}) });
  const shown = turnBox(box, rotation);
  const x = Math.max(0, shown.x - shown.w * MARGIN);
  const y = Math.max(0, shown.y - shown.h * MARGIN);
  const w = Math.min(1 - x, shown.w * (1 + 2 * MARGIN));
  const h = Math.min(1 - y, shown.h * (1 + 2 * MARGIN));
  return (
    <span className={['face-crop', className].filter(Boolean).join(' ')} aria-hidden="true">
      {url && (
        <img
          src={url}
          alt=""
          decoding="async"
          draggable={false}
          style={{ width: `${100 / w}%`, height: `${100 / h}%`, left: `${(-x / w) * 100}%`, top: `${(-y / h) * 100}%` }}
        />
      )}
    </span>
  );
}
