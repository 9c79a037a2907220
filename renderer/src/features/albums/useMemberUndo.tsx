import { useEffect, useState } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import { Notice } from '../../ui/Notice.tsx';
import type { AlbumMember, useAlbumMutations } from './queries.ts';
import { takenOutWords } from './words.ts';

/** As long as the server keeps what a removal took (its albumUndoMs). */
export const UNDO_MINUTES = 10;

interface Removed {
  person: AlbumMember;
  at: number;
}

/**
 * The owner just took someone out of the album: for the undo window, a message with Undo that
 * brings them back with the photos they had added. It stays until it is dismissed, undone or the
 * window ends, in the people dialog while that is open and on the album's page after (not both:
 * the page is inert behind the dialog).
 */
export function useMemberUndo(mutations: ReturnType<typeof useAlbumMutations>) {
  const [removed, setRemoved] = useState<Removed | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const { restoreMember } = mutations;

  useEffect(() => {
    if (!removed) return;
    const left = removed.at + UNDO_MINUTES * 60_000 - Date.now();
    const timer = setTimeout(() => setRemoved(null), Math.max(0, left));
    return () => clearTimeout(timer);
  }, [removed]);

  const undo = () => {
    if (!removed) return;
    const { person } = removed;
    restoreMember.mutate(person.user_id, {
      onSuccess: (answer) => {
        setRemoved(null);
        setSaid(
          `${person.name} is back in the album${answer.photos_restored > 0 ? `, with ${answer.photos_restored === 1 ? 'the photo' : `the ${answer.photos_restored} photos`} they added` : ''}.`,
        );
      },
      // Too late (or already undone): nothing left to offer.
      onError: () => setRemoved(null),
    });
  };

  const dismiss = () => {
    setRemoved(null);
    setSaid(null);
    restoreMember.reset();
  };

  const view = (
    <>
      {(removed || said) && (
        <div className="album-toast album-undo" role="status">
          <span>{removed ? takenOutWords(removed.person) : said}</span>
          {removed && (
            <button type="button" className="btn btn-quiet album-toast-action" disabled={restoreMember.isPending} onClick={undo}>
              Undo
            </button>
          )}
          <button type="button" className="album-toast-close" aria-label="Dismiss" onClick={dismiss}>
            <Icon name="close" />
          </button>
        </div>
      )}
      {restoreMember.error && <Notice tone="error">{restoreMember.error.message}</Notice>}
    </>
  );

  return {
    /** Offers Undo for this removal (the last one replaces any before). */
    offer: (person: AlbumMember) => {
      setSaid(null);
      restoreMember.reset();
      setRemoved({ person, at: Date.now() });
    },
    view,
  };
}
