import { Link, useParams } from 'react-router';
import type { Node } from '../../api/types.ts';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { UploadButton } from '../upload/index.ts';
import { NodeIcon } from './NodeIcon.tsx';
import { useBreadcrumb, useFolderListing } from './queries.ts';
import './files.css';

/** My files: a folder's contents (the top level blends in what others shared with me). */
export function FilesPage() {
  const { folderId = null } = useParams();
  const listing = useFolderListing({ parentId: folderId, sort: 'name', order: 'asc' });
  const crumbs = useBreadcrumb(folderId);
  const here = folderId ? crumbs.data?.at(-1) : null;
  const items = listing.data?.pages.flatMap((page) => page.items) ?? [];
  const title = folderId ? (here?.name ?? '…') : 'My files';

  return (
    <>
      <div className="topbar">
        <h1>{title}</h1>
        <UploadButton parentId={folderId} />
      </div>
      {folderId && (
        <nav aria-label="Folder path" className="crumbs">
          <Link to="/files">My files</Link>
          {crumbs.data?.map((crumb) => (
            <span key={crumb.id}>
              <span aria-hidden="true"> › </span>
              {crumb.id === folderId ? <span aria-current="page">{crumb.name}</span> : <Link to={`/files/${crumb.id}`}>{crumb.name}</Link>}
            </span>
          ))}
        </nav>
      )}
      {listing.isPending && <Spinner label="Loading files" />}
      {listing.isError && <Notice tone="error">{listing.error.message}</Notice>}
      {listing.isSuccess && items.length === 0 && (
        <div className="empty">
          <p>
            <strong>{folderId ? 'This folder is empty.' : 'Nothing here yet.'}</strong>
          </p>
          <p className="muted">Upload photos and files from this device with the Upload button.</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="node-list" aria-label="Files and folders">
          {items.map((node) => (
            <NodeRow key={node.id} node={node} />
          ))}
        </ul>
      )}
      {listing.hasNextPage && (
        <button type="button" className="btn" onClick={() => void listing.fetchNextPage()} disabled={listing.isFetchingNextPage}>
          {listing.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </button>
      )}
    </>
  );
}

function NodeRow({ node }: { node: Node }) {
  const meta = node.type === 'folder' ? formatDate(node.updated_at) : `${formatBytes(node.size)} · ${formatDate(node.updated_at)}`;
  const body = (
    <>
      <NodeIcon node={node} />
      <span className="node-text">
        <span className="node-name">{node.name}</span>
        <span className="node-meta">{meta}</span>
      </span>
    </>
  );
  return (
    <li className="node-row">
      {node.type === 'folder' ? (
        <Link className="node-main" to={`/files/${node.id}`}>
          {body}
        </Link>
      ) : (
        <div className="node-main">{body}</div>
      )}
    </li>
  );
}
