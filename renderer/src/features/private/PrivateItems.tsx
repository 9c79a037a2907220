import { useThumbnail } from '../../api/thumbnails.ts';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { PhotoViewer, usePhotoSource } from '../../kits/photos/index.ts';

interface PrivateItemsProps {
  items: Node[];
  /** The photo shown full screen, if one is. */
  viewing: string | null;
  onOpen: (node: Node) => void;
  onShow: (node: Node) => void;
  onClose: () => void;
  onMoveOut: (node: Node) => void;
  busy: boolean;
}

const isMedia = (node: Node) => node.type === 'file' && (node.mime_type?.startsWith('image/') || node.mime_type?.startsWith('video/'));

/** What is in Private: each with its picture and "Move out of Private"; a photo opens full screen. */
export function PrivateItems({ items, viewing, onOpen, onShow, onClose, onMoveOut, busy }: PrivateItemsProps) {
  const media = items.filter(isMedia);
  const index = viewing ? media.findIndex((node) => node.id === viewing) : -1;
  const source = usePhotoSource(media, index);
  return (
    <>
      <ul className="private-grid" aria-label="In Private">
        {items.map((node) => (
          <li key={node.id} className="private-item">
            <button type="button" className="private-open" onClick={() => isMedia(node) && onOpen(node)} aria-label={`Open ${node.name}`}>
              <Picture node={node} />
            </button>
            <span className="private-name">{node.name}</span>
            <Button
              className="private-move-out"
              aria-label={`Move ${node.name} out of Private`}
              disabled={busy}
              onClick={() => onMoveOut(node)}
            >
              Move out
            </Button>
          </li>
        ))}
      </ul>
      {index >= 0 && (
        <PhotoViewer
          items={media}
          index={index}
          source={source}
          onShow={onShow}
          onClose={onClose}
          actions={[{ label: 'Move out of Private', icon: 'lock', onClick: onMoveOut }]}
          details={() => []}
          overlay={null}
          closeLabel="Back to Private"
        />
      )}
    </>
  );
}

function Picture({ node }: { node: Node }) {
  const url = useThumbnail(node);
  if (url) return <img src={url} alt="" />;
  return (
    <span className="private-icon" aria-hidden="true">
      <Icon name={node.type === 'folder' ? 'folder' : 'file'} />
    </span>
  );
}
