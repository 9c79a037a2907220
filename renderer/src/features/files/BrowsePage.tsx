import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { personNamesQuery } from '../../api/queries.ts';
import type { Node } from '../../api/types.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatBytes, formatDate, plural } from '../../ui/format.ts';
import { useSelection } from '../../ui/useSelection.ts';
import { SharedTabs } from '../../kits/sharing/index.ts';
import { UploadButton, uploadQueue } from '../../kits/upload/index.ts';
import { FileDialogs, type Open } from './dialogs.tsx';
import { useNodeAction } from '../../kits/folders/index.ts';
import { ListTools, type Layout } from './ListTools.tsx';
import { NodeIcon } from './NodeIcon.tsx';
import { SelectionBar } from './SelectionBar.tsx';
import { useBreadcrumb, useListing, type SortKey, type SortOrder, type View } from './queries.ts';
import './files.css';

const TITLES: Record<Exclude<View['kind'], 'folder'>, string> = {
  starred: 'Favourites',
  recent: 'Recent',
  shared: 'Shared with me',
  trash: 'Trash',
  search: 'Search',
};

const EMPTY: Record<View['kind'], string> = {
  folder: 'This folder is empty.',
  starred: 'No favourites yet. Mark files, folders and photos as favourites to find them here.',
  recent: 'No files yet.',
  shared: 'Nobody has shared anything with you yet.',
  trash: 'The trash is empty.',
  search: 'Nothing matches that name.',
};

function useLayout(): [Layout, (layout: Layout) => void] {
  const [layout, setLayout] = useState<Layout>(() => (localStorage.getItem('hearth.layout') === 'grid' ? 'grid' : 'list'));
  return [
    layout,
    (next) => {
      localStorage.setItem('hearth.layout', next);
      setLayout(next);
    },
  ];
}

/** Browse: a folder, the blended top level, or one of the flat views; with selection and bulk actions. */
export function BrowsePage({ kind }: { kind: View['kind'] }) {
  const { folderId = null } = useParams();
  const [params] = useSearchParams();
  const view: View = kind === 'folder' ? { kind, id: folderId } : kind === 'search' ? { kind, q: params.get('q') ?? '' } : { kind };
  const [sort, setSort] = useState<SortKey>('name');
  const [order, setOrder] = useState<SortOrder>('asc');
  const [layout, setLayout] = useLayout();
  const listing = useListing(view, { sort, order });
  const crumbs = useBreadcrumb(view.kind === 'folder' ? view.id : null);
  const selection = useSelection<Node>();
  const [open, setOpen] = useState<Open | null>(null);
  const star = useNodeAction();
  const items = listing.data?.pages.flatMap((page) => page.items) ?? [];
  const retention = listing.data?.pages[0]?.retention_days;
  // Chosen as they are now in the list (a star just given shows), not as they were when chosen.
  const chosen = items.filter((n) => selection.has(n.id));
  const inTrash = view.kind === 'trash';
  const here = view.kind === 'folder' && view.id ? crumbs.data?.at(-1) : null;
  const title = view.kind === 'folder' ? (view.id ? (here?.name ?? '…') : 'My files') : TITLES[view.kind];
  const location = `${view.kind}:${view.kind === 'folder' ? view.id : ''}`;
  const [seen, setSeen] = useState(location);
  if (seen !== location) {
    // A new place starts with nothing selected.
    setSeen(location);
    selection.clear();
  }

  const { dragging, dropProps } = useFileDrop(view);

  return (
    <div className={dragging ? 'browse drop-target' : 'browse'} {...dropProps}>
      <div className="topbar">
        <h1>{title}</h1>
        {view.kind === 'folder' && (
          <>
            <Button icon="newFolder" aria-label="New folder" onClick={() => setOpen({ kind: 'new-folder' })}>
              <span className="hide-narrow">New folder</span>
            </Button>
            <UploadButton parentId={view.id} />
          </>
        )}
      </div>
      {view.kind === 'shared' && <SharedTabs />}
      {view.kind === 'folder' && view.id === null && <QuickLinks />}
      {(view.kind === 'search' || (view.kind === 'folder' && view.id === null)) && (
        <SearchBox initial={view.kind === 'search' ? view.q : ''} />
      )}
      {view.kind === 'folder' && view.id && <Crumbs folderId={view.id} crumbs={crumbs.data} />}
      {inTrash && retention !== undefined && (
        <p className="muted">Items in the trash are deleted for good after {plural(retention, 'day')}.</p>
      )}
      <ListTools
        sortable={view.kind !== 'recent' && !inTrash}
        sort={sort}
        order={order}
        layout={layout}
        onSort={(s, o) => {
          setSort(s);
          setOrder(o);
        }}
        onLayout={setLayout}
      />
      {chosen.length > 0 && <SelectionBar chosen={chosen} inTrash={inTrash} act={star} onClear={selection.clear} onOpen={setOpen} />}
      {star.data?.failed.length ? (
        <Notice tone="error">{`${plural(star.data.failed.length, 'item')} could not be changed: ${star.data.failed[0]!.message}`}</Notice>
      ) : null}
      {listing.isPending && view.kind !== 'search' && <Spinner label="Loading files" />}
      {listing.isError && <Notice tone="error">{listing.error.message}</Notice>}
      {listing.isSuccess && items.length === 0 && (
        <div className="empty">
          <p>
            <strong>{view.kind === 'folder' && view.id === null ? 'Nothing here yet.' : EMPTY[view.kind]}</strong>
          </p>
          {view.kind === 'folder' && <p className="muted">Upload photos and files from this device with the Upload button.</p>}
        </div>
      )}
      {items.length > 0 && (
        <ul className={layout === 'grid' ? 'node-grid' : 'node-list'} aria-label="Files and folders">
          {items.map((node) => (
            <NodeRow
              key={node.id}
              node={node}
              selected={selection.has(node.id)}
              onToggle={selection.toggle}
              onMore={() => setOpen({ kind: 'actions', node })}
              inTrash={inTrash}
              onRestore={() => star.mutate({ nodes: [node], action: { kind: 'restore' } })}
            />
          ))}
        </ul>
      )}
      <MoreOnScroll listing={listing} />
      <FileDialogs
        open={open}
        setOpen={setOpen}
        parentId={view.kind === 'folder' ? view.id : null}
        inTrash={inTrash}
        onDone={selection.clear}
      />
    </div>
  );
}

/** Files dropped on a folder are uploaded into it; the page shows where they will land while dragged over. */
function useFileDrop(view: View) {
  const [dragging, setDragging] = useState(false);
  const dropProps =
    view.kind === 'folder'
      ? {
          onDragOver: (event: DragEvent) => {
            if (!event.dataTransfer.types.includes('Files')) return;
            event.preventDefault();
            setDragging(true);
          },
          onDragLeave: (event: DragEvent) => {
            if (event.currentTarget === event.target) setDragging(false);
          },
          onDrop: (event: DragEvent) => {
            event.preventDefault();
            setDragging(false);
            const files = [...event.dataTransfer.files];
            if (files.length > 0) void uploadQueue.add(files, view.id);
          },
        }
      : {};
  return { dragging, dropProps };
}

function Crumbs({ folderId, crumbs }: { folderId: string; crumbs: { id: string; name: string }[] | undefined }) {
  return (
    <nav aria-label="Folder path" className="crumbs">
      <Link to="/files">My files</Link>
      {crumbs?.map((crumb) => (
        <span key={crumb.id}>
          <span aria-hidden="true"> › </span>
          {crumb.id === folderId ? <span aria-current="page">{crumb.name}</span> : <Link to={`/files/${crumb.id}`}>{crumb.name}</Link>}
        </span>
      ))}
    </nav>
  );
}

function NodeRow({
  node,
  selected,
  onToggle,
  onMore,
  inTrash,
  onRestore,
}: {
  node: Node;
  selected: boolean;
  onToggle: (node: Node) => void;
  onMore: () => void;
  inTrash: boolean;
  onRestore: () => void;
}) {
  const people = useQuery(personNamesQuery);
  const sharedBy = node.shared ? `Shared by ${people.data?.get(node.owner_id) ?? 'someone in the family'}` : null;
  // In the trash, when it was deleted is what counts (the clock of the retention period).
  const when =
    inTrash && node.trashed_at ? `Deleted ${formatDate(node.trashed_at).replace(/^Today/, 'today')}` : formatDate(node.updated_at);
  const meta = [node.type === 'file' ? formatBytes(node.size) : null, when, sharedBy].filter(Boolean).join(' · ');
  const body = (
    <>
      <NodeIcon node={node} />
      <span className="node-text">
        <span className="node-name">
          {node.name}
          {node.starred && <Icon name="star" label="Favourite" />}
        </span>
        <span className="node-meta">{meta}</span>
      </span>
    </>
  );
  return (
    <li className={selected ? 'node-row is-selected' : 'node-row'}>
      {/* The label widens the checkbox's target to 44 px without a bigger box. */}
      <label className="node-check-hit">
        <input
          type="checkbox"
          className="node-check"
          checked={selected}
          onChange={() => onToggle(node)}
          aria-label={`Select ${node.name}`}
        />
      </label>
      {node.type === 'folder' && !inTrash ? (
        <Link className="node-main" to={`/files/${node.id}`}>
          {body}
        </Link>
      ) : (
        <button type="button" className="node-main" onClick={onMore}>
          {body}
        </button>
      )}
      {/* What the trash is visited for, one tap away rather than in the menu only. */}
      {inTrash && (
        <Button icon="restore" className="row-restore" onClick={onRestore} aria-label={`Restore ${node.name}`}>
          <span className="hide-narrow">Restore</span>
        </Button>
      )}
      <IconButton icon="more" label={`More for ${node.name}`} onClick={onMore} />
    </li>
  );
}

/** The next page arrives as the end of the list comes into view. */
function MoreOnScroll({ listing }: { listing: ReturnType<typeof useListing> }) {
  const sentinel = useRef<HTMLDivElement>(null);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = listing;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || !hasNextPage) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage();
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);
  if (!hasNextPage) return null;
  return (
    <div ref={sentinel} className="more">
      <Button onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
        {isFetchingNextPage ? 'Loading…' : 'Show more'}
      </Button>
    </div>
  );
}

function QuickLinks() {
  return (
    <nav aria-label="Views" className="chips">
      <Link className="chip" to="/starred">
        <Icon name="star" /> Favourites
      </Link>
      <Link className="chip" to="/recent">
        <Icon name="clock" /> Recent
      </Link>
      <Link className="chip" to="/trash">
        <Icon name="trash" /> Trash
      </Link>
      <Link className="chip" to="/private">
        <Icon name="lock" /> Private
      </Link>
    </nav>
  );
}

function SearchBox({ initial }: { initial: string }) {
  const navigate = useNavigate();
  const [q, setQ] = useState(initial);
  return (
    <form
      role="search"
      className="search"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        if (q.trim()) navigate(`/search?q=${encodeURIComponent(q.trim())}`);
      }}
    >
      <Icon name="search" />
      <label htmlFor="search-input" className="visually-hidden">
        Search by name
      </label>
      <input
        id="search-input"
        type="search"
        placeholder="Search by name"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        enterKeyHint="search"
      />
    </form>
  );
}
