import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { ApiError } from '../../api/error-messages.ts';
import { Spinner } from '../../ui/Notice.tsx';
import { downloadUrl, fetchPlayback, fetchShare, mediaKind, playbackCopyUrl, thumbnailUrl, type SharedNode } from './api.ts';
import { dropGrant, keepGrant, keptGrant } from './grants.ts';
import { LinkProblem, problemOf } from './LinkProblem.tsx';
import type { LinkSources } from './LinkViewer.tsx';
import { PublicFrame } from './PublicFrame.tsx';
import { publicQueryClient } from './queryClient.ts';
import { SharedFile } from './SharedFile.tsx';
import { SharedFolder } from './SharedFolder.tsx';
import { SharedPhotos } from './SharedPhotos.tsx';
import { UnlockPage } from './UnlockPage.tsx';
import './public.css';

/**
 * `/s/<token>`: what a link shares, for someone without an account. It runs apart from the
 * signed-in app: its own query cache, no session restored or refreshed, no WebSocket, and
 * requests that never carry an account's token.
 */
export function PublicSharePage() {
  const { token = '' } = useParams();
  return (
    <QueryClientProvider client={publicQueryClient}>
      <SharedLink key={token} token={token} />
    </QueryClientProvider>
  );
}

function SharedLink({ token }: { token: string }) {
  const [grant, setGrant] = useState(() => keptGrant(token));
  const info = useQuery({ queryKey: ['share', token, grant], queryFn: () => fetchShare(token, grant) });
  const { refetch } = info;
  const recheck = useCallback(() => void refetch(), [refetch]);

  const sources = useMemo<LinkSources>(() => {
    const allowed = info.data?.allow_download === true;
    return {
      thumbnail: (node: SharedNode) => (node.has_thumbnail ? thumbnailUrl(token, grant, node) : null),
      preview: (node: SharedNode) => (node.has_thumbnail ? thumbnailUrl(token, grant, node, 1024) : null),
      // The viewer plays a video from it, and loads a photo's original once zoomed past its preview.
      media: (node: SharedNode) => (allowed && mediaKind(node) !== 'other' ? downloadUrl(token, grant, node, true) : null),
      download: (node: SharedNode) => (allowed && node.type === 'file' ? downloadUrl(token, grant, node) : null),
      // A video of the link plays where its file may be downloaded: the copy follows the same rule.
      playback: allowed
        ? {
            scope: `link:${token}:${grant ?? ''}`,
            facts: (id: string) => fetchPlayback(token, grant, id),
            copyUrl: (id: string) => playbackCopyUrl(token, grant, id),
          }
        : null,
    };
  }, [info.data?.allow_download, token, grant]);

  if (info.isPending) {
    return (
      <div className="center-page">
        <Spinner label="Opening the link" />
      </div>
    );
  }
  if (info.isError) {
    const error = info.error instanceof ApiError ? info.error : new ApiError(0, 'unknown', String(info.error));
    if (error.code === 'share_password_required') {
      // A kept grant that no longer opens the link (its password changed): ask again.
      if (grant) dropGrant(token);
      return (
        <UnlockPage
          token={token}
          onUnlocked={(kept) => {
            keepGrant(token, kept);
            setGrant(kept.grant);
          }}
        />
      );
    }
    return <LinkProblem problem={problemOf(error)} detail={error.message} onRetry={recheck} />;
  }
  return (
    <PublicFrame>
      {info.data.node.type === 'folder' && info.data.view === 'photos' ? (
        // An album, or a folder of photos: by day, as photos, with Download all.
        <SharedPhotos token={token} grant={grant} info={info.data} sources={sources} onLinkError={recheck} />
      ) : info.data.node.type === 'folder' ? (
        <SharedFolder token={token} grant={grant} info={info.data} sources={sources} onLinkError={recheck} />
      ) : (
        <SharedFile token={token} grant={grant} info={info.data} sources={sources} />
      )}
    </PublicFrame>
  );
}
