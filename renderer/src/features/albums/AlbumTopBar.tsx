import { useNavigate } from 'react-router';
import { Button, IconButton } from '../../ui/Button.tsx';
import type { Open } from './AlbumDialogs.tsx';
import { AlbumUploadButton } from './AlbumUploadButton.tsx';
import type { Album } from './queries.ts';
import { countWords, takenRange } from './words.ts';

/** The album's name and line, Select, Upload, Share (People for a member) and More. */
export function AlbumTopBar({
  album,
  onSelect,
  onOpen,
  onError,
}: {
  album: Album;
  onSelect: () => void;
  onOpen: (open: Open) => void;
  onError: (message: string | null) => void;
}) {
  const navigate = useNavigate();
  const isOwner = album.role === 'owner';
  const canAdd = album.role !== 'viewer';
  return (
    <div className="topbar album-topbar">
      <IconButton icon="back" label="Back to albums" onClick={() => navigate('/albums')} />
      <div className="album-title">
        <h1>{album.name}</h1>
        <AlbumLine album={album} />
      </div>
      <div className="album-actions">
        {album.photos + album.videos > 0 && (
          <Button icon="check" className="album-select" onClick={onSelect}>
            Select
          </Button>
        )}
        {canAdd && <AlbumUploadButton album={album} onError={onError} />}
        <Button icon="people" onClick={() => onOpen('people')}>
          {isOwner ? 'Share' : 'People'}
        </Button>
      </div>
      <IconButton icon="more" label="More for this album" className="album-more" onClick={() => onOpen('more')} />
    </div>
  );
}

/** "12 photos · 3 – 10 Aug 2024 · Shared by Emma · You can add photos". */
function AlbumLine({ album }: { album: Album }) {
  const whose =
    album.role === 'owner'
      ? album.members > 0
        ? `Shared with ${album.members === 1 ? '1 person' : `${album.members} people`}`
        : null
      : `Shared by ${album.owner_name}${album.role === 'contributor' ? ' · You can add photos' : ''}`;
  return (
    <span className="muted album-line">
      {[countWords(album.photos, album.videos), takenRange(album.first_taken_at, album.last_taken_at), whose].filter(Boolean).join(' · ')}
    </span>
  );
}
