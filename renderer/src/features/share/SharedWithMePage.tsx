import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, data } from '../../api/client.ts';
import { downloadLink, startDownload } from '../../api/downloads.ts';
import { nodeKeys } from '../../api/queries.ts';
import { useThumbnail, type Thumbable } from '../../api/thumbnails.ts';
import type { Answer } from '../../api/types.ts';
import { Button, IconButton } from '../../ui/Button.tsx';
import { Dialog } from '../../ui/Dialog.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice, Spinner } from '../../ui/Notice.tsx';
import { formatDate, plural } from '../../ui/format.ts';
import { KeptNotice, SharedTabs, useKeepCopy } from '../../kits/sharing/index.ts';
import { useLiveShared } from './useLiveShared.ts';
import './shared-with-me.css';

type SharedItem = Answer<'/shared-with-me', 'get'>['items'][number];

/** Under the nodes' key, so a share received (a node event) refreshes the list. */
const sharedWithMeKey = [...nodeKeys.all, 'shared-with-me'] as const;

/**
 * Shared with me: every way something reaches this person from someone else, newest first:
 * files and folders, albums they are in, and whole photo collections (partners), each with who
 * shared it and one tap that opens it.
 */
export function SharedWithMePage() {
  useLiveShared(sharedWithMeKey);
  const list = useInfiniteQuery({
    queryKey: sharedWithMeKey,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      data(api.GET('/shared-with-me', { params: { query: { limit: 100, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  return (
    <>
      <div className="topbar">
        <h1>Shared with me</h1>
      </div>
      <SharedTabs />
      {list.isPending && <Spinner label="Loading what is shared with you" />}
      {list.isError && <Notice tone="error">{list.error.message}</Notice>}
      {list.isSuccess && items.length === 0 && (
        <div className="empty">
          <p>
            <strong>Nobody has shared anything with you yet.</strong>
          </p>
          <p className="muted">When someone in the family shares a file, a folder, an album or all their photos with you, it shows here.</p>
        </div>
      )}
      {items.length > 0 && (
        <ul className="shared-list" aria-label="Shared with me">
          {items.map((item) => (
            <SharedRow key={`${item.kind}:${item.id}`} item={item} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <Button onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? 'Loading…' : 'Show more'}
        </Button>
      )}
    </>
  );
}

/** What the row says it is, before who shared it. */
function kindWords(item: SharedItem): string {
  switch (item.kind) {
    case 'folder':
      return 'Folder';
    case 'file':
      return 'File';
    case 'album': {
      const photos = item.album?.photos ?? 0;
      const videos = item.album?.videos ?? 0;
      return ['Album', photos > 0 && plural(photos, 'photo'), videos > 0 && plural(videos, 'video')].filter(Boolean).join(' · ');
    }
    case 'partner':
      return item.since ? `Photos from ${formatDay(item.since)} on` : 'All their photos';
  }
}

function formatDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

function SharedRow({ item }: { item: SharedItem }) {
  const name = item.kind === 'partner' ? `${item.name}’s photos` : item.name;
  const meta = [kindWords(item), `Shared by ${item.shared_by.name}`, formatDate(item.shared_at)].join(' · ');
  const body = (
    <>
      <SharedPicture item={item} />
      <span className="shared-text">
        <span className="shared-name">{name}</span>
        <span className="muted">{meta}</span>
      </span>
    </>
  );
  if (item.kind === 'file') {
    return (
      <li className="shared-row">
        <button type="button" className="shared-main" aria-label={`Open ${name}`} onClick={() => void openFile(item.id)}>
          {body}
        </button>
        <FileMenu id={item.id} name={name} />
      </li>
    );
  }
  const to = item.kind === 'folder' ? `/files/${item.id}` : item.kind === 'album' ? `/albums/${item.id}` : '/gallery';
  return (
    <li className="shared-row">
      <Link className="shared-main" to={to} aria-label={`Open ${name}`}>
        {body}
      </Link>
    </li>
  );
}

/** A shared file's menu: open it, download it, or keep a copy of it as one's own. */
function FileMenu({ id, name }: { id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const keep = useKeepCopy();
  const [failed, setFailed] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setFailed(null);
    keep.reset();
  };
  return (
    <>
      <IconButton icon="more" label={`More for ${name}`} onClick={() => setOpen(true)} />
      {open && (
        <Dialog title={name} onClose={close}>
          {failed && <Notice tone="error">{failed}</Notice>}
          <KeptNotice keep={keep} onLeave={close} />
          <ul className="menu" aria-label={`Actions for ${name}`}>
            <li>
              <button type="button" onClick={() => void openFile(id)}>
                <Icon name="photo" />
                Open
              </button>
            </li>
            <li>
              <button
                type="button"
                onClick={() =>
                  startDownload({ id, name }).then(close, (error: unknown) =>
                    setFailed(error instanceof Error ? error.message : 'The download could not start.'),
                  )
                }
              >
                <Icon name="download" />
                Download
              </button>
            </li>
            <li>
              <button type="button" onClick={() => keep.mutate(id)} disabled={keep.isPending}>
                <Icon name="copy" />
                Keep a copy
              </button>
            </li>
          </ul>
        </Dialog>
      )}
    </>
  );
}

/** A file opens in a new tab (photos, videos and PDFs show there; anything else is saved). */
async function openFile(id: string): Promise<void> {
  // Opened at the tap, so the browser allows it; pointed at the file once its short-lived link is made.
  const tab = window.open('', '_blank');
  const { url } = await downloadLink({ id }, true);
  if (tab) tab.location.href = url;
  else window.location.assign(url);
}

function SharedPicture({ item }: { item: SharedItem }) {
  const thumbable: Thumbable | null =
    item.kind === 'album' ? (item.album?.cover ?? null) : item.kind === 'file' && item.node ? item.node : null;
  const url = useThumbnail(thumbable);
  if (url) return <img className="shared-picture" src={url} alt="" />;
  const icon = item.kind === 'folder' ? 'folder' : item.kind === 'album' ? 'albums' : item.kind === 'partner' ? 'people' : 'file';
  return (
    <span className={`shared-picture shared-icon shared-icon-${item.kind}`}>
      <Icon name={icon} />
    </span>
  );
}
