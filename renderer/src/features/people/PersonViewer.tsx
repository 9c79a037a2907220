import { useEffect } from 'react';
import type { Node } from '../../api/types.ts';
import { Gone } from '../../ui/Gone.tsx';
import { Spinner } from '../../ui/Notice.tsx';
import { PhotoViewer, usePhotoSource } from '../../kits/photos/index.ts';

/** Their photos full screen, in the page's order; the next page is listed as the swipe nears its end. */
export function PersonViewer({
  personId,
  nodeId,
  items,
  hasMore,
  loading,
  loadMore,
  onShow,
  onClose,
  name,
}: {
  personId: string;
  nodeId: string;
  items: readonly Node[];
  hasMore: boolean;
  loading: boolean;
  loadMore: () => void;
  onShow: (item: Node) => void;
  onClose: () => void;
  name: string;
}) {
  const index = items.findIndex((item) => item.id === nodeId);
  useEffect(() => {
    if (loading || !hasMore) return;
    if (index < 0 || index > items.length - 4) loadMore();
  }, [index, items.length, hasMore, loading, loadMore]);
  const source = usePhotoSource(items, index);
  if (index < 0) {
    if (hasMore || loading) return <Spinner label="Opening the photo" />;
    return (
      <Gone className="viewer-missing" back={`/people/${personId}`} backLabel={`Back to ${name}`}>
        This photo is not among {name}’s any more: a face in it may have been moved out, or it went to the trash.
      </Gone>
    );
  }
  return (
    <PhotoViewer
      items={items}
      index={index}
      source={source}
      onShow={onShow}
      onClose={onClose}
      actions={[]}
      details={() => []}
      overlay={null}
      closeLabel={`Back to ${name}`}
    />
  );
}
