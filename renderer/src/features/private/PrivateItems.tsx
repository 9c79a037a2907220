import { useThumbnail } from '../../api/thumbnails.ts';
import type { Node } from '../../api/types.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { MonthGroups, PhotoViewer, usePhotoSource, type Selection } from '../../kits/photos/index.ts';

interface PrivateItemsProps {
  items: Node[];
  /** The photo shown full screen, if one is. */
  viewing: string | null;
  onOpen: (node: Node) => void;
  onShow: (node: Node) => void;
  onClose: () => void;
  onMoveOut: (node: Node) => void;
  busy: boolean;
  /** Photos and files chosen together, for Move out or the trash at once. */
  selection: Selection;
}

const isMedia = (node: Node) => node.type === 'file' && (node.mime_type?.startsWith('image/') || node.mime_type?.startsWith('video/'));

/**
 * What is in Private: its photos and videos by month, as Photos shows them (a tap opens one full
 * screen, a long press or the corner's check selects), then its other files and folders apart;
 * each with "Move out" under it, or, while selecting, a tick box.
 */
export function PrivateItems({ items, viewing, onOpen, onShow, onClose, onMoveOut, busy, selection }: PrivateItemsProps) {
  const media = items.filter(isMedia);
  const others = items.filter((node) => !isMedia(node));
  const index = viewing ? media.findIndex((node) => node.id === viewing) : -1;
  const source = usePhotoSource(media, index);
  const moveOut = (node: Node) => (
    <Button className="private-move-out" aria-label={`Move ${node.name} out of Private`} disabled={busy} onClick={() => onMoveOut(node)}>
      Move out
    </Button>
  );
  return (
    <>
      {media.length > 0 && <MonthGroups items={media} label="Photos in Private" onOpen={onOpen} action={moveOut} selection={selection} />}
      {others.length > 0 && (
        <section className="private-files" aria-labelledby="private-files-title">
          <h2 id="private-files-title">Files</h2>
          <ul className="private-grid" aria-label="Files in Private">
            {others.map((node) => (
              <li key={node.id} className={selection.has(node.id) ? 'private-item private-item-selected' : 'private-item'}>
                {selection.active ? (
                  // While selecting, the whole card is the tick box's label: a tap on the picture chooses it too.
                  <label className="private-choose">
                    <span className="private-open">
                      <Picture node={node} />
                    </span>
                    <span className="private-choose-row">
                      <input
                        type="checkbox"
                        aria-label={`Select ${node.name}`}
                        checked={selection.has(node.id)}
                        onChange={() => selection.toggle(node)}
                      />
                      <span className="private-name">{node.name}</span>
                    </span>
                  </label>
                ) : (
                  <>
                    <span className="private-open">
                      <Picture node={node} />
                    </span>
                    <span className="private-name">{node.name}</span>
                    {moveOut(node)}
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
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
