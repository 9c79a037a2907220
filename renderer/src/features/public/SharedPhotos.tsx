import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/error-messages.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { fetchChildren, mediaKind, zipUrl, type SharedInfo, type SharedNode } from './api.ts';
import { groupByDay } from './days.ts';
import { useLinkKeep } from './keep.tsx';
import { LinkViewer, type LinkSources } from './LinkViewer.tsx';
import { ShareHeading } from './ShareHeading.tsx';
import { TilePicture } from './SharedFolder.tsx';

/** The tiles a phone shows before any scrolling: fetched at once and first. */
const EAGER_TILES = 9;

/**
 * A link to an album, or to a folder of photos, as photos: by day, each day's heading with the
 * places its photos were taken, tiles without file names, and "Download all" as one zip where
 * the link allows downloads. A tap opens the viewer, which says the photo's day and place. The
 * few other files a folder of photos may hold are listed after the photos, by name.
 */
export function SharedPhotos({
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
  const [viewing, setViewing] = useState<number | null>(null);
  const keep = useLinkKeep(token, grant, info.allow_download);
  const listing = useInfiniteQuery({
    queryKey: ['share', token, grant, 'photos'],
    initialPageParam: undefined as string | undefined,
    // An album comes in the order its photos were taken whatever is asked; a folder is asked so.
    queryFn: ({ pageParam }) => fetchChildren(token, grant, null, pageParam, 'taken'),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const { error, hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  useEffect(() => {
    // The link may have changed while open (locked, expired, turned off): look again, and the page says so.
    if (error instanceof ApiError && ['share_password_required', 'share_expired', 'not_found'].includes(error.code)) onLinkError();
  }, [error, onLinkError]);

  const items = useMemo(() => listing.data?.pages.flatMap((page) => page.items) ?? [], [listing.data]);
  const media = useMemo(() => items.filter((node) => mediaKind(node) !== 'other'), [items]);
  const others = items.filter((node) => node.type === 'file' && mediaKind(node) === 'other');
  const days = useMemo(() => groupByDay(media), [media]);

  const more = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const sentinel = more.current;
    if (!sentinel || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  let shown = 0;
  return (
    <>
      <ShareHeading info={info} title={info.node.name} />
      {info.allow_download && media.length > 0 && (
        <p className="public-actions">
          {/* The browser saves the zip as it is made: nothing is gathered in this page first. */}
          <a className="btn btn-primary" href={zipUrl(token, grant)} download>
            <Icon name="download" />
            Download all
          </a>
        </p>
      )}
      {listing.isPending && <Spinner label="Loading the photos" />}
      {listing.isError && <Notice tone="error">{listing.error.message}</Notice>}
      {listing.isSuccess && items.length === 0 && (
        <div className="public-empty">
          <p>
            <strong>There are no photos here yet.</strong>
          </p>
        </div>
      )}
      {days.map((day) => (
        <section key={day.key} className="public-day" aria-labelledby={`day-${day.key}`}>
          <h2 id={`day-${day.key}`} className="public-day-title">
            {day.title}
            {day.places.length > 0 && <span className="public-day-places">{day.places.join(', ')}</span>}
          </h2>
          <ul className="public-photos" aria-label={`Photos of ${day.title}`}>
            {day.items.map((node) => {
              const index = media.indexOf(node);
              const eager = shown++ < EAGER_TILES;
              return (
                <li key={node.id}>
                  <button
                    type="button"
                    className="public-photo"
                    aria-label={`${mediaKind(node) === 'video' ? 'Video' : 'Photo'} ${index + 1} of ${media.length}${hasNextPage ? '+' : ''}`}
                    onClick={() => setViewing(index)}
                  >
                    <TilePicture node={node} src={sources.thumbnail(node)} eager={eager} />
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      {others.length > 0 && <OtherFiles files={others} sources={sources} />}
      {hasNextPage && (
        <div ref={more} className="public-more">
          <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage ? 'Loading…' : 'Show more'}
          </Button>
        </div>
      )}
      {viewing !== null && (
        <LinkViewer items={media} index={viewing} sources={sources} onIndex={setViewing} onClose={() => setViewing(null)} keep={keep} />
      )}
    </>
  );
}

/** A folder of photos may hold a note or two: by name, saved with a tap where the link allows it. */
function OtherFiles({ files, sources }: { files: SharedNode[]; sources: LinkSources }) {
  return (
    <section className="public-day" aria-labelledby="other-files">
      <h2 id="other-files" className="public-day-title">
        Other files
      </h2>
      <ul className="public-other-files">
        {files.map((node) => {
          const url = sources.download(node);
          return (
            <li key={node.id}>
              <Icon name="file" />
              {url ? (
                <a href={url} download={node.name}>
                  {node.name}
                </a>
              ) : (
                <span>{node.name}</span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
