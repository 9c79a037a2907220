import { useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { mediaKind, type SharedInfo } from './api.ts';
import { LinkViewer, type LinkSources } from './LinkViewer.tsx';
import { ShareHeading } from './ShareHeading.tsx';
import { TilePicture } from './SharedFolder.tsx';
import { useLinkKeep } from './keep.tsx';

/**
 * One shared file: its picture (a tap opens it full screen), what it is, the download, and "Keep
 * a copy" for a family member signed in in this browser. A visitor without a session is not
 * offered it (nor told to sign in): most who open a link have no account here, and a sign-in
 * prompt would only puzzle them; the same rule as an album's link.
 */
export function SharedFile({
  token,
  grant,
  info,
  sources,
}: {
  token: string;
  grant: string | null;
  info: SharedInfo;
  sources: LinkSources;
}) {
  const node = info.node;
  const keep = useLinkKeep(token, grant, info.allow_download);
  const [viewing, setViewing] = useState(false);
  const download = sources.download(node);
  const kind = mediaKind(node);
  const when = node.taken_at ?? node.updated_at;
  return (
    <>
      <ShareHeading info={info} title={node.name} />
      <div className="public-file card">
        <button type="button" className="public-file-picture" onClick={() => setViewing(true)} aria-label={`Open ${node.name}`}>
          <TilePicture node={node} src={sources.preview(node) ?? sources.thumbnail(node)} eager />
        </button>
        <div className="public-file-info">
          <p>
            {kind === 'image' ? 'Photo' : kind === 'video' ? 'Video' : 'File'} · {formatBytes(node.size)} · {formatDate(when)}
          </p>
          {download && (
            <a className="btn btn-primary" href={download} download={node.name}>
              <Icon name="download" />
              Download
            </a>
          )}
          {keep.keep && (
            <button type="button" className="btn" onClick={() => keep.keep?.(node)}>
              <Icon name="copy" />
              Keep a copy
            </button>
          )}
        </div>
      </div>
      {viewing && (
        <LinkViewer items={[node]} index={0} sources={sources} onIndex={() => undefined} onClose={() => setViewing(false)} keep={keep} />
      )}
      {!viewing && keep.view}
    </>
  );
}
