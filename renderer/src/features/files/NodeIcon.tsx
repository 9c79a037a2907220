import type { Node } from '../../api/types.ts';
import { useThumbnail } from '../../api/thumbnails.ts';
import { Icon } from '../../ui/Icon.tsx';

/** A file's picture: its thumbnail when it has one, else an icon for its kind. */
export function NodeIcon({ node }: { node: Node }) {
  const thumb = useThumbnail(node.type === 'file' ? node : null);
  if (thumb) return <img className="node-thumb" src={thumb} alt="" loading="lazy" decoding="async" />;
  const kind =
    node.type === 'folder'
      ? 'folder'
      : node.mime_type?.startsWith('image/')
        ? 'photo'
        : node.mime_type?.startsWith('video/')
          ? 'video'
          : 'file';
  return (
    <span className={`node-icon node-icon-${kind}${node.color ? ` color-${node.color}` : ''}`}>
      <Icon name={kind} />
    </span>
  );
}
