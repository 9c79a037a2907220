import { Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { copyText } from '../../ui/clipboard.ts';
import {
  linkFacts,
  ShareDialog,
  SharedTabs,
  useLinkedAlbums,
  useLinkedNodes,
  useMyLinks,
  type ShareLink,
} from '../../kits/sharing/index.ts';

/** Every link this account made and has not turned off, newest first, each with its file or folder. */
export function SharedLinksPage() {
  const links = useMyLinks();
  const items = links.data?.pages.flatMap((page) => page.items) ?? [];
  const nodes = useLinkedNodes(items.flatMap((link) => (link.node_id ? [link.node_id] : [])));
  const albums = useLinkedAlbums(items.flatMap((link) => (link.album_id ? [link.album_id] : [])));
  const byId = new Map(nodes.flatMap((query) => (query.data ? [[query.data.id, query.data] as const] : [])));
  const albumNames = new Map(albums.flatMap((query) => (query.data ? [[query.data.id, query.data.name] as const] : [])));
  const [managing, setManaging] = useState<Node | null>(null);
  // One row per file, folder or album, in the order of its newest link.
  const grouped = new Map<string, ShareLink[]>();
  for (const link of items) {
    const key = link.node_id ?? `album:${link.album_id}`;
    grouped.set(key, [...(grouped.get(key) ?? []), link]);
  }
  const groups = [...grouped];

  return (
    <>
      <div className="topbar">
        <h1>Links I made</h1>
      </div>
      <SharedTabs />
      {links.isPending && <Spinner label="Loading your links" />}
      {links.isError && <Notice tone="error">{links.error.message}</Notice>}
      {links.isSuccess && items.length === 0 && (
        <div className="empty">
          <p>
            <strong>You have not made any links.</strong>
          </p>
          <p className="muted">To share a file or folder with someone without an account, choose Share on it, then Make a link.</p>
        </div>
      )}
      {groups.length > 0 && (
        <ul className="my-links" aria-label="Your links">
          {groups.map(([key, targetLinks]) => {
            const albumId = targetLinks[0]!.album_id;
            return albumId ? (
              <LinkedAlbum key={key} links={targetLinks} albumId={albumId} name={albumNames.get(albumId) ?? null} />
            ) : (
              <LinkedNode key={key} links={targetLinks} node={byId.get(key) ?? null} onManage={setManaging} />
            );
          })}
        </ul>
      )}
      {links.hasNextPage && (
        <Button onClick={() => void links.fetchNextPage()} disabled={links.isFetchingNextPage}>
          {links.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </Button>
      )}
      {managing && (
        <Suspense fallback={null}>
          <ShareDialog node={managing} onClose={() => setManaging(null)} />
        </Suspense>
      )}
    </>
  );
}

/** A file or folder with its links: what each allows, copy when there is one, manage them all in the dialog. */
function LinkedNode({ links, node, onManage }: { links: ShareLink[]; node: Node | null; onManage: (node: Node) => void }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const name = node?.name ?? '…';
  const only = links.length === 1 ? links[0]! : null;
  return (
    <li className="my-link">
      <span className={node?.type === 'folder' ? 'my-link-icon my-link-folder' : 'my-link-icon'}>
        <Icon name={node?.type === 'folder' ? 'folder' : 'file'} />
      </span>
      <div className="my-link-text">
        <span className="my-link-name">{name}</span>
        {links.map((link) => (
          <span key={link.id} className="muted">
            {links.length > 1 ? 'Link: ' : ''}
            {linkFacts(link).join(' · ')}
          </span>
        ))}
        {node?.trashed_at && <span className="fact-warn">In the trash: its links open nothing until you restore it.</span>}
        <span role="status" className="link-status">
          {copied === true && 'Link copied.'}
          {copied === false && 'This browser would not copy it: choose Manage and copy it from there.'}
        </span>
      </div>
      <div className="share-row">
        {only && (
          <Button icon="copy" aria-label={`Copy the link to ${name}`} onClick={() => void copyText(only.url).then(setCopied)}>
            Copy
          </Button>
        )}
        <Button disabled={!node} aria-label={`Manage the links to ${name}`} onClick={() => node && onManage(node)}>
          Manage
        </Button>
      </div>
    </li>
  );
}

/** An album with its links: what each allows, copy when there is one; they are managed from the album's Share. */
function LinkedAlbum({ links, albumId, name }: { links: ShareLink[]; albumId: string; name: string | null }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  const shown = name ?? '…';
  const only = links.length === 1 ? links[0]! : null;
  return (
    <li className="my-link">
      <span className="my-link-icon">
        <Icon name="albums" />
      </span>
      <div className="my-link-text">
        <span className="my-link-name">{shown}</span>
        {links.map((link) => (
          <span key={link.id} className="muted">
            {links.length > 1 ? 'Link: ' : ''}
            {['Album', ...linkFacts(link)].join(' · ')}
          </span>
        ))}
        <span role="status" className="link-status">
          {copied === true && 'Link copied.'}
          {copied === false && 'This browser would not copy it: open the album and copy it from Share.'}
        </span>
      </div>
      <div className="share-row">
        {only && (
          <Button icon="copy" aria-label={`Copy the link to ${shown}`} onClick={() => void copyText(only.url).then(setCopied)}>
            Copy
          </Button>
        )}
        <Link className="btn" to={`/albums/${albumId}`} aria-label={`Open the album ${shown} to manage its links`}>
          Open album
        </Link>
      </div>
    </li>
  );
}
