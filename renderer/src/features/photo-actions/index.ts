// The actions on a selection of photos and videos, shared by Photos and an album.
export { PhotoActionBar, type PageAction, type PhotoActionBarProps } from './PhotoActionBar.tsx';
