import { Link } from 'react-router';
import { FaceCrop } from './FaceCrop.tsx';
import type { PhotoFace } from './faces.ts';

/**
 * "People in this photo" in the viewer's details: a chip for each face (its crop and name) that
 * opens the person's page, and Show faces, which draws the boxes on the photo.
 */
export function PhotoPeople({
  item,
  faces,
  showing,
  onToggle,
}: {
  item: { id: string; version: number; rotation?: number | undefined };
  faces: readonly PhotoFace[];
  /** Null when the boxes cannot be drawn (a video). */
  showing: boolean | null;
  onToggle: () => void;
}) {
  return (
    <div className="photo-people">
      <ul className="photo-people-chips" aria-label="People in this photo">
        {faces.map((face) => {
          const chip = (
            <>
              <FaceCrop nodeId={item.id} version={item.version} rotation={item.rotation} box={face.box} className="face-chip-crop" />
              <span className={face.name ? 'face-chip-name' : 'face-chip-name muted'}>{face.name ?? 'Not named yet'}</span>
            </>
          );
          return (
            <li key={face.id}>
              {face.person_id ? (
                <Link
                  className="face-chip"
                  to={`/people/${face.person_id}`}
                  aria-label={face.name ? `Open ${face.name}` : 'Open this person (not named yet)'}
                >
                  {chip}
                </Link>
              ) : (
                <span className="face-chip">{chip}</span>
              )}
            </li>
          );
        })}
      </ul>
      {showing !== null && (
        <button type="button" className="btn btn-quiet photo-people-toggle" aria-pressed={showing} onClick={onToggle}>
          {showing ? 'Hide faces' : 'Show faces'}
        </button>
      )}
    </div>
  );
}
