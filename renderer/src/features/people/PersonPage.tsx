import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { PhotoGrid, PhotoViewer, useGallerySelection, usePhotoSource, useViewerRoute } from '../../kits/photos/index.ts';
import { FacesReview } from './FacesReview.tsx';
import { MergeDialog } from './MergeDialog.tsx';
import { PersonHeader } from './PersonHeader.tsx';
import { PersonToast, type Said } from './PersonToast.tsx';
import { usePerson, usePersonPhotos } from './person-queries.ts';
import { personName, personNameInside, photoCount } from './words.ts';
import './people.css';

/**
 * A person's page: their face, their name (renamed in place) and their photos newest first,
 * with the timeline's tiles and viewer (`/people/<id>/<photo>` opens one full screen). From here
 * the family says they are the same person as someone else, moves faces that are not them out,
 * and hides them.
 */
export function PersonPage() {
  const { personId = '', nodeId = null } = useParams();
  // Another person's page starts afresh: nothing chosen or said on this one carries over.
  return <PersonView key={personId} personId={personId} nodeId={nodeId} />;
}

function PersonView({ personId, nodeId }: { personId: string; nodeId: string | null }) {
  const person = usePerson(personId);
  const photos = usePersonPhotos(personId);
  const selection = useGallerySelection();
  const [checking, setChecking] = useState(false);
  const [merging, setMerging] = useState(false);
  const [said, setSaid] = useState<Said | null>(null);

  const loaded = useMemo(() => photos.data?.pages.flatMap((page) => page.items) ?? [], [photos.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = photos;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const viewer = useViewerRoute<Node>(`/people/${personId}`, '', 'fromPerson');

  if (person.isPending) return <Spinner label="Opening their page" />;
  if (person.isError) return <PersonGone message={isApiError(person.error, 'not_found') ? null : person.error.message} />;
  const current = person.data;
  const name = personName(current);

  return (
    <div className="person-page">
      <PersonHeader
        person={current}
        checking={checking}
        onCheck={() => setChecking((on) => !on)}
        onMerge={() => setMerging(true)}
        onSaid={setSaid}
      />
      {checking ? (
        <FacesReview person={current} onSaid={setSaid} onDone={() => setChecking(false)} />
      ) : (
        <>
          {photos.isError && <Notice tone="error">{photos.error.message}</Notice>}
          <PhotoGrid
            total={current.photo_count}
            items={loaded}
            hasMore={hasNextPage || photos.isPending}
            loadMore={loadMore}
            selection={selection}
            onOpen={viewer.open}
            reveal={nodeId ? null : viewer.lastViewed}
            label={`Photos of ${personNameInside(current)}, newest first`}
          />
        </>
      )}
      {nodeId && (
        <PersonViewer
          personId={personId}
          nodeId={nodeId}
          items={loaded}
          hasMore={hasNextPage}
          loading={photos.isPending || isFetchingNextPage}
          loadMore={loadMore}
          onShow={viewer.show}
          onClose={viewer.close}
          name={name}
        />
      )}
      {merging && (
        <MergeDialog
          person={current}
          onClose={() => setMerging(false)}
          onMerged={(photos) => {
            setMerging(false);
            setSaid({ text: `Put together: ${name} now has ${photoCount(photos)}.` });
          }}
        />
      )}
      {said && !nodeId && <PersonToast said={said} onDismiss={() => setSaid(null)} />}
      {current.hidden && !said && (
        <p className="muted person-hidden-note">
          {name} is hidden: not on People and not found by search. <Link to="/people/hidden">Hidden people</Link>
        </p>
      )}
    </div>
  );
}

/** Their photos full screen, in the page's order; the next page is listed as the swipe nears its end. */
function PersonViewer({
  personId,
  nodeId,
  items,
  hasMore,
  loading,
  loadMore,
  onShow,
  onClose,
  name,
}: {
  personId: string;
  nodeId: string;
  items: readonly Node[];
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  onShow: (item: Node) => void;
  onClose: () => void;
  name: string;
}) {
  const index = items.findIndex((item) => item.id === nodeId);
  useEffect(() => {
    if (loading || !hasMore) return;
    if (index < 0 || index > items.length - 4) loadMore();
  }, [index, items.length, hasMore, loading, loadMore]);
  const source = usePhotoSource(items, index);
  if (index < 0) {
    if (hasMore || loading) return <Spinner label="Opening the photo" />;
    return (
      <div className="viewer-missing" role="alert">
        <p>This photo is not among {name}’s any more: a face in it may have been moved out, or it went to the trash.</p>
        <Link className="btn" to={`/people/${personId}`} replace>
          Back to {name}
        </Link>
      </div>
    );
  }
  return (
    <PhotoViewer
      items={items}
      index={index}
      source={source}
      onShow={onShow}
      onClose={onClose}
      actions={[]}
      details={() => []}
      overlay={null}
      closeLabel={`Back to ${name}`}
    />
  );
}

/** Put together with someone else, every face moved out, or never theirs: 404. */
function PersonGone({ message }: { message: string | null }) {
  return (
    <div className="albums-empty" role="alert">
      <h1>This person is not here</h1>
      <p>{message ?? 'They may have been put together with someone else, or their photos went to the trash.'}</p>
      <Link className="btn" to="/people" replace>
        Back to People
      </Link>
    </div>
  );
}
