// The photo kit: what Photos and an album show their photos and videos with, and what both do
// with a selection. It stands on api/, ui/ and the viewer kit, and knows no page: the albums'
// dialogs come in through the action bar's props (SelectionDialogs).
export { Tile } from './Tile.tsx';
export { columnsFor, GAP } from './grid.ts';
export { useOffsetTop, useWidth } from './useListPlacement.ts';
export { noteScrolling } from './thumbs.ts';
export { monthOfNode, useGallerySelection, type Selection } from './selection.ts';
// Months as the timeline counts and names them, for a short list shown by month (Private).
export { groupByMonth, monthCountWords, monthLabel, warmPhotoDates, type MonthGroup } from './months.ts';
export { MonthGroups } from './MonthGroups.tsx';
export { useEscapeEndsSelection } from './useEscapeEndsSelection.ts';
// A photo opened full screen at its own address, and the viewer that shows it.
export { useViewerRoute } from './useViewerRoute.ts';
export { PhotoViewer, usePhotoSource, type PhotoViewerProps } from './PhotoViewer.tsx';
export { timelineRoot } from './keys.ts';
// The trash of a selection (ask, progress, Undo): an album trashes its owner's photos with it too.
export { useTrash } from './trash.tsx';
// What a selection is called in a sentence ("this photo", "3 photos"), for the actions on it.
export { capitalise, selectionWords } from './words.ts';
// The actions on a selection of photos and videos, shared by Photos and an album.
export { PhotoActionBar, type PhotoActionBarProps } from './actions/PhotoActionBar.tsx';
export type { Action, PageAction } from './actions/ActionButton.tsx';
// A selection bar with only the page's own actions (Private: Move out, Move to trash).
export { SelectionBar } from './actions/SelectionBar.tsx';
export type { AddToAlbumDialogProps, SelectionDialogs, ShareAsAlbumDialogProps } from './actions/dialogs.ts';
// Faces: a face cut out of its photo, a photo's faces (the viewer's "People in this photo"), and the grid of a person's page.
export { FaceCrop } from './FaceCrop.tsx';
export { photoFacesRoot, turnBox, usePhotoFaces, type FaceBox, type PhotoFace } from './faces.ts';
export { PhotoGrid, type PhotoGridProps } from './PhotoGrid.tsx';
