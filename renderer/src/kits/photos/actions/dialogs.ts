import type { ComponentType } from 'react';
import type { Node } from '../../../api/types.ts';

export interface AddToAlbumDialogProps {
  /** The selection: photos and videos (anything else is left out before asking). */
  nodes: readonly Node[];
  /** What of the selection was left out, and why ("One is Emma’s: …"). */
  note?: string | null;
  /** They are in the album now: the selection can end. */
  onAdded: () => void;
  /** Nothing more to show: cancelled, or the message after adding has gone. */
  onClose: () => void;
}

export interface ShareAsAlbumDialogProps {
  /** The person's own photos and videos of the selection. */
  nodes: readonly Node[];
  /** What of the selection was left out, and why ("One is Emma’s: …"). */
  note?: string | null;
  /** The album's name until they type another ("August 2024"). */
  suggestedName: string;
  /** The album is made: the selection can end. */
  onMade: () => void;
  onClose: () => void;
}

/**
 * The albums' dialogs the action bar opens (Add to album; Share, a new album of them). They are
 * the albums feature's: the page passes them in (the app for Photos, an album its own), so the
 * kit knows no feature. They may be lazy: the bar waits for them in a Suspense of its own.
 */
export interface SelectionDialogs {
  AddToAlbum: ComponentType<AddToAlbumDialogProps>;
  ShareAsAlbum: ComponentType<ShareAsAlbumDialogProps>;
}
