import type { ViewerMark } from './types.ts';

/**
 * A photo fitted to the screen as the lightbox fits it, with boxes drawn on it and each box's
 * words under it: the faces in the photo and who each is.
 */
export function MarkedImage({
  src,
  alt,
  width,
  height,
  rect,
  marks,
}: {
  src: string;
  alt: string;
  width: number;
  height: number;
  rect: { width: number; height: number };
  marks: ViewerMark[];
}) {
  const scale = Math.min(rect.width / width, rect.height / height, 1);
  return (
    <div className="viewer-marked" style={{ width: Math.round(width * scale), height: Math.round(height * scale) }}>
      <img src={src} alt={alt} draggable={false} className="viewer-marked-image" />
      <ul className="viewer-marks" aria-label="Faces on the photo">
        {marks.map((mark) => (
          <li
            key={mark.id}
            className="viewer-mark"
            style={{
              left: `${mark.box.x * 100}%`,
              top: `${mark.box.y * 100}%`,
              width: `${mark.box.w * 100}%`,
              height: `${mark.box.h * 100}%`,
            }}
          >
            <span className="viewer-mark-label">{mark.label}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
