import { useCallback, useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/client.ts';
import type { Node } from '../../api/types.ts';
import { useSession } from '../../api/useSession.ts';
import { Gone } from '../../ui/Gone.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { PhotoActionBar, PhotoGrid, useEscapeEndsSelection, useViewerRoute, type SelectionDialogs } from '../../kits/photos/index.ts';
import { FacesReview } from './FacesReview.tsx';
import { MergeDialog } from './MergeDialog.tsx';
import { PersonHeader } from './PersonHeader.tsx';
import { PersonToast, type Said } from './PersonToast.tsx';
import { PersonViewer } from './PersonViewer.tsx';
import { usePerson, usePersonPhotos } from './person-queries.ts';
import { usePersonSelection } from './usePersonSelection.ts';
import { personName, personNameInside, photoCount } from './words.ts';
import './people.css';

/**
 * A person's page: their face, their name (renamed in place) and their photos newest first,
 * with the timeline's tiles and viewer (`/people/<id>/<photo>` opens one full screen). From here
 * the family says they are the same person as someone else, moves faces that are not them out
 * (picked out among their faces, or by choosing photos they are not in), and hides them; chosen
 * photos have Photos' actions too (the albums' dialogs come in from the app, as Photos' do).
 */
export function PersonPage({ albumDialogs }: { albumDialogs: SelectionDialogs }) {
  const { personId = '', nodeId = null } = useParams();
  // Another person's page starts afresh: nothing chosen or said on this one carries over.
  return <PersonView key={personId} personId={personId} nodeId={nodeId} albumDialogs={albumDialogs} />;
}

function PersonView({ personId, nodeId, albumDialogs }: { personId: string; nodeId: string | null; albumDialogs: SelectionDialogs }) {
  const session = useSession();
  const me = session.kind === 'signed-in' ? session.user.id : '';
  const person = usePerson(personId);
  const photos = usePersonPhotos(personId);
  const [checking, setChecking] = useState(false);
  const [merging, setMerging] = useState(false);
  const [said, setSaid] = useState<Said | null>(null);

  const loaded = useMemo(() => photos.data?.pages.flatMap((page) => page.items) ?? [], [photos.data]);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = photos;
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  const viewer = useViewerRoute<Node>(`/people/${personId}`, '', 'fromPerson');
  const chosen = usePersonSelection(personId, person.data, setSaid, (trashed) => {
    const shown = viewer.viewing.current.item;
    if (nodeId && shown && trashed.some((node) => node.id === shown.id)) viewer.close();
  });
  const { selection } = chosen;
  useEscapeEndsSelection(selection, Boolean(nodeId) || chosen.trash.busy);

  if (person.isPending) return <Spinner label="Opening their page" />;
  if (person.isError) return <PersonGone message={isApiError(person.error, 'not_found') ? null : person.error.message} />;
  const current = person.data;
  const name = personName(current);

  return (
    <div className={selection.active ? 'person-page gallery-selecting' : 'person-page'}>
      <PhotoActionBar
        selection={selection}
        me={me}
        name={name}
        extra={chosen.extra}
        trashPlace="more"
        onTrash={(nodes, note) => chosen.trash.ask(nodes, note)}
        trashBusy={chosen.trash.busy}
        dialogs={albumDialogs}
      />
      {!selection.active && (
        <PersonHeader
          person={current}
          checking={checking}
          onCheck={() => setChecking((on) => !on)}
          onMerge={() => setMerging(true)}
          onSelect={() => selection.start()}
          onSaid={setSaid}
        />
      )}
      {current.hidden && !said && (
        <p className="muted person-hidden-note">
          {name} is hidden: not on People and not found by search. <Link to="/people/hidden">Hidden people</Link>
        </p>
      )}
      {!nodeId && chosen.trash.view}
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
    </div>
  );
}

/** Put together with someone else, every face moved out, or never theirs: 404. */
function PersonGone({ message }: { message: string | null }) {
  return (
    <Gone title="This person is not here" back="/people" backLabel="Back to People">
      {message ?? 'They may have been put together with someone else, or their photos went to the trash.'}
    </Gone>
  );
}
