import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError } from '../../api/error-messages.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { plural } from '../../ui/format.ts';
import { fetchChildren, mediaKind, type SharedInfo, type SharedNode } from './api.ts';
import { LinkViewer, type LinkSources } from './LinkViewer.tsx';
import { ShareHeading } from './ShareHeading.tsx';
import { useLinkKeep } from './keep.tsx';

interface Crumb {
  id: string;
  name: string;
}

/**
 * A shared folder: its contents as a grid of thumbnails, folders inside it opened in place
 * (`?folder=<id>`, so Back works), and photos and videos in the viewer.
 */
export function SharedFolder({
  token,
  grant,
  info,
  sources,
  onLinkError,
}: {
  token: string;
  grant: string | null;
  info: SharedInfo;
  sources: LinkSources;
  onLinkError: () => void;
}) {
  const [params] = useSearchParams();
  const location = useLocation();
  const folderId = params.get('folder');
  // The way down from the shared folder, carried in the history entry; after a reload only "back to the top" remains.
  const trail = ((location.state as { trail?: Crumb[] } | null)?.trail ?? []).filter(Boolean);
  const here = folderId ? (trail.at(-1)?.id === folderId ? trail.at(-1)!.name : 'Folder') : info.node.name;
  const [viewing, setViewing] = useState<number | null>(null);
  const keep = useLinkKeep(token, grant, info.allow_download);

  const listing = useInfiniteQuery({
    queryKey: ['share', token, grant, 'children', folderId],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => fetchChildren(token, grant, folderId, pageParam),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const { error } = listing;
  useEffect(() => {
    // The link may have changed while open (locked, expired, turned off): look again, and the page says so.
    if (error instanceof ApiError && ['share_password_required', 'share_expired', 'not_found'].includes(error.code)) onLinkError();
  }, [error, onLinkError]);

  const items = listing.data?.pages.flatMap((page) => page.items) ?? [];
  const files = items.filter((node) => node.type === 'file');
  const more = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  useEffect(() => {
    const sentinel = more.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <>
      <ShareHeading info={info} title={here} />
      {folderId && <FolderTrail top={info.node.name} trail={trail} folderId={folderId} />}
      {listing.isPending && <Spinner label="Loading the shared files" />}
      {listing.isError && <Notice tone="error">{listing.error.message}</Notice>}
      {listing.isSuccess && items.length === 0 && (
        <div className="public-empty">
          <p>
            <strong>This folder is empty.</strong>
          </p>
        </div>
      )}
      {items.length > 0 && (
        <>
          <p className="muted public-count">{plural(items.length, 'item') + (hasNextPage ? ' so far' : '')}</p>
          <ul className="public-grid" aria-label="Files in this folder">
            {items.map((node) =>
              node.type === 'folder' ? (
                <li key={node.id}>
                  <Link
                    className="public-tile"
                    to={`?folder=${encodeURIComponent(node.id)}`}
                    state={{ trail: [...trail, { id: node.id, name: node.name }] }}
                  >
                    <span className="public-tile-picture public-tile-folder">
                      <Icon name="folder" />
                    </span>
                    <span className="public-tile-name">{node.name}</span>
                  </Link>
                </li>
              ) : (
                <li key={node.id}>
                  <button type="button" className="public-tile" onClick={() => setViewing(files.indexOf(node))}>
                    <TilePicture node={node} src={sources.thumbnail(node)} eager={items.indexOf(node) < EAGER_TILES} />
                    <span className="public-tile-name">{node.name}</span>
                  </button>
                </li>
              ),
            )}
          </ul>
        </>
      )}
      {hasNextPage && (
        <div ref={more} className="public-more">
          <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
      {viewing !== null && (
        <LinkViewer items={files} index={viewing} sources={sources} onIndex={setViewing} onClose={() => setViewing(null)} keep={keep} />
      )}
    </>
  );
}

/** The way down from the shared folder: each folder above is a way back. */
function FolderTrail({ top, trail, folderId }: { top: string; trail: Crumb[]; folderId: string }) {
  return (
    <nav aria-label="Folder path" className="public-crumbs">
      <Link to="." state={null}>
        {top}
      </Link>
      {trail.map((crumb, i) => (
        <span key={crumb.id}>
          <span aria-hidden="true"> › </span>
          {crumb.id === folderId ? (
            <span aria-current="page">{crumb.name}</span>
          ) : (
            <Link to={`?folder=${encodeURIComponent(crumb.id)}`} state={{ trail: trail.slice(0, i + 1) }}>
              {crumb.name}
            </Link>
          )}
        </span>
      ))}
    </nav>
  );
}

/** The tiles a phone shows before any scrolling: fetched at once and first, the rest as they come into view. */
const EAGER_TILES = 6;

/** A file's thumbnail, or an icon for its kind when it has none (or it fails to load). */
export function TilePicture({ node, src, eager = false }: { node: SharedNode; src: string | null; eager?: boolean }) {
  const [broken, setBroken] = useState(false);
  const kind = mediaKind(node);
  if (src && !broken) {
    return (
      <span className="public-tile-picture">
        <img
          src={src}
          alt=""
          loading={eager ? 'eager' : 'lazy'}
          fetchPriority={eager ? 'high' : 'auto'}
          decoding="async"
          onError={() => setBroken(true)}
        />
        {kind === 'video' && (
          <span className="public-tile-badge">
            <Icon name="play" />
          </span>
        )}
      </span>
    );
  }
  return (
    <span className="public-tile-picture">
      <Icon name={kind === 'image' ? 'photo' : kind === 'video' ? 'video' : 'file'} />
    </span>
  );
}
