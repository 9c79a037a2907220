import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useThumbnail } from '../../api/thumbnails.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { NameDialog } from './NameDialog.tsx';
import { useAlbums, useCreateAlbum, type Album, type AlbumScope } from './queries.ts';
import { useLiveAlbums } from './useLiveAlbums.ts';
import { countWords, takenRange } from './words.ts';
import './albums.css';

/**
 * Albums: the family member's own, and beside them those shared with them, each with its
 * cover, how many photos it holds and when they were taken.
 */
export function AlbumsPage() {
  useLiveAlbums();
  const navigate = useNavigate();
  const [naming, setNaming] = useState(false);
  const create = useCreateAlbum();
  return (
    <div className="albums-page">
      <div className="topbar">
        <h1>Albums</h1>
        <Button variant="primary" icon="add" onClick={() => setNaming(true)}>
          New album
        </Button>
      </div>
      <AlbumSection scope="mine" title="My albums" empty={<EmptyMine />} />
      <AlbumSection
        scope="shared"
        title="Shared with me"
        empty={<p className="muted">When someone in the family shares an album with you, it shows here.</p>}
      />
      {naming && (
        <NameDialog
          title="New album"
          action="Make album"
          busy={create.isPending}
          error={create.error?.message ?? null}
          onSubmit={(name) => create.mutate({ name }, { onSuccess: (album) => navigate(`/albums/${album.id}`) })}
          onClose={() => {
            create.reset();
            setNaming(false);
          }}
        />
      )}
    </div>
  );
}

function AlbumSection({ scope, title, empty }: { scope: AlbumScope; title: string; empty: ReactNode }) {
  const albums = useAlbums(scope);
  const items = albums.data?.pages.flatMap((page) => page.items) ?? [];
  const headingId = `albums-${scope}`;
  return (
    <section className="album-section" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {albums.isPending && <Spinner label={`Loading ${title.toLowerCase()}`} />}
      {albums.isError && <Notice tone="error">{albums.error.message}</Notice>}
      {albums.isSuccess && items.length === 0 && empty}
      {items.length > 0 && (
        <ul className="album-grid" aria-label={title}>
          {items.map((album) => (
            <li key={album.id}>
              <AlbumCard album={album} />
            </li>
          ))}
        </ul>
      )}
      {albums.hasNextPage && (
        <div className="more">
          <Button onClick={() => void albums.fetchNextPage()} disabled={albums.isFetchingNextPage}>
            {albums.isFetchingNextPage ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
    </section>
  );
}

/** An album as a cover with its name, what it holds and when, and whose it is or with how many it is shared. */
function AlbumCard({ album }: { album: Album }) {
  const dates = takenRange(album.first_taken_at, album.last_taken_at);
  const whose =
    album.role === 'owner'
      ? album.members > 0
        ? `Shared with ${album.members === 1 ? '1 person' : `${album.members} people`}`
        : null
      : `Shared by ${album.owner_name}`;
  return (
    <Link className="album-card" to={`/albums/${album.id}`}>
      <AlbumCover album={album} />
      <span className="album-card-name">{album.name}</span>
      <span className="album-card-meta">{[countWords(album.photos, album.videos), dates].filter(Boolean).join(' · ')}</span>
      {whose && (
        <span className="album-card-meta">
          <Icon name="people" />
          {whose}
        </span>
      )}
    </Link>
  );
}

export function AlbumCover({ album }: { album: Pick<Album, 'cover'> }) {
  const url = useThumbnail(album.cover);
  return (
    <span className="album-cover" aria-hidden="true">
      {url ? <img src={url} alt="" decoding="async" draggable={false} /> : <Icon name="albums" />}
    </span>
  );
}

function EmptyMine() {
  return (
    <div className="albums-empty">
      <p>Gather photos from anywhere into an album: a holiday, a birthday, the grandchildren. Nothing is copied.</p>
      <p className="muted">
        In <Link to="/gallery">Photos</Link>, select some and choose Add to album, or make a New album to fill later.
      </p>
    </div>
  );
}
