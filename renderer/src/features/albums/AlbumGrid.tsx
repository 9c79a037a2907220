import { PhotoGrid, type PhotoGridProps } from '../../kits/photos/index.ts';

/** An album's photos as the timeline shows them: the photo kit's virtualized grid. */
export function AlbumGrid(props: Omit<PhotoGridProps, 'label' | 'className'>) {
  return <PhotoGrid {...props} label="Photos and videos of the album, oldest first" className="album-items" />;
}
