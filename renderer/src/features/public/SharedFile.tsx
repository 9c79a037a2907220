import { useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { formatBytes, formatDate } from '../../ui/format.ts';
import { mediaKind, type SharedInfo } from './api.ts';
import { LinkViewer, type LinkSources } from './LinkViewer.tsx';
import { ShareHeading } from './ShareHeading.tsx';
import { TilePicture } from './SharedFolder.tsx';

/** One shared file: its picture (a tap opens it full screen), what it is, and the download. */
export function SharedFile({ info, sources }: { info: SharedInfo; sources: LinkSources }) {
  const node = info.node;
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
        </div>
      </div>
      {viewing && <LinkViewer items={[node]} index={0} sources={sources} onIndex={() => undefined} onClose={() => setViewing(false)} />}
    </>
  );
}
