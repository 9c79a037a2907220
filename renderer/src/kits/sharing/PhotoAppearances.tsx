import { useState } from 'react';
import { useSession } from '../../api/useSession.ts';
import { Button } from '../../ui/Button.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { formatUntil } from './expiry.ts';
import { useAppearanceMutations, useAppearances, type AlbumAppearance } from './queries.ts';
import './share.css';

/**
 * In the Details of one's own photo: every album and link that shows it, and whom each reaches.
 * Only a photo's owner decides who sees it, so here they take it out of any album (one someone
 * they shared it with put it in too) and say whether an album's link may show it.
 */
export function PhotoAppearances({ nodeId }: { nodeId: string }) {
  const state = useSession();
  const me = state.kind === 'signed-in' ? state.user.id : '';
  const seen = useAppearances(nodeId);
  const { takeOut, setOnLinks } = useAppearanceMutations(nodeId);
  const [said, setSaid] = useState<string | null>(null);
  // The answer just given, shown at once while the server takes it (then the list says the same).
  const [answered, setAnswered] = useState<ReadonlyMap<string, boolean>>(new Map());
  if (seen.isPending) return <span>…</span>;
  if (seen.isError) return <Notice tone="error">{seen.error.message}</Notice>;
  const { albums, links } = seen.data;
  const failure = takeOut.error?.message ?? setOnLinks.error?.message ?? null;
  const busy = takeOut.isPending || setOnLinks.isPending;
  return (
    <div className="appearances">
      {albums.length === 0 && links.length === 0 && <p>In no album, and on no link.</p>}
      {albums.length > 0 && (
        <ul className="appearance-list" aria-label="Albums showing this photo">
          {albums.map((album) => (
            <li key={album.album_id} className="appearance">
              <p className="appearance-name">
                “{album.album_name}”{' '}
                <span className="muted">{album.album_owner_id === me ? 'your album' : `${album.album_owner_name}’s album`}</span>
              </p>
              <p className="muted appearance-reach">{reachWords(album, me)}</p>
              {album.shared_with_album && (
                <label className="appearance-check">
                  <input
                    type="checkbox"
                    checked={answered.get(album.album_id) ?? album.on_links}
                    disabled={busy}
                    onChange={(event) => {
                      const onLinks = event.target.checked;
                      setAnswered((before) => new Map(before).set(album.album_id, onLinks));
                      setOnLinks.mutate(
                        { albumId: album.album_id, onLinks },
                        {
                          onSuccess: (now) =>
                            setSaid(
                              now.on_links
                                ? `The link to “${album.album_name}” may show it now.`
                                : `The link to “${album.album_name}” does not show it any more.`,
                            ),
                          onSettled: () =>
                            setAnswered((before) => {
                              const after = new Map(before);
                              after.delete(album.album_id);
                              return after;
                            }),
                        },
                      );
                    }}
                  />
                  <span>
                    Show on the link to “{album.album_name}”<span className="muted"> ({linkCount(album.live_links)})</span>
                  </span>
                </label>
              )}
              <Button
                className="appearance-out"
                icon="remove"
                disabled={busy}
                onClick={() =>
                  takeOut.mutate(album.album_id, {
                    onSuccess: () => setSaid(`Taken out of “${album.album_name}”. It is still where it was.`),
                  })
                }
              >
                Take out of “{album.album_name}”
              </Button>
            </li>
          ))}
        </ul>
      )}
      {links.length > 0 && (
        <ul className="appearance-list" aria-label="Links showing this photo">
          {links.map((link) => (
            <li key={link.link_id} className="appearance">
              <p className="appearance-name">
                {link.node_id === nodeId ? 'A link to this photo' : `A link to the folder “${link.node_name}”`}
              </p>
              <p className="muted appearance-reach">
                {[
                  link.created_by !== me
                    ? `Made by ${link.created_by_name}`
                    : link.node_id === nodeId
                      ? 'You made it: change or stop it with Share'
                      : 'You made it: change or stop it from the folder’s Share',
                  link.expires_at === null ? null : `until ${formatUntil(link.expires_at)}`,
                  link.password_protected ? 'with a password' : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
            </li>
          ))}
        </ul>
      )}
      <div role="status" className="appearance-said">
        {said}
      </div>
      {failure && <Notice tone="error">{failure}</Notice>}
    </div>
  );
}

/** Whom the photo reaches in that album, in a family's words. */
function reachWords(album: AlbumAppearance, me: string): string {
  if (!album.shared_with_album) {
    return `${album.added_by_name} put it there. Only the people you shared it with see it there, and never its link.`;
  }
  if (album.members === 0) return album.album_owner_id === me ? 'Only you see it there.' : `${album.album_owner_name} sees it there.`;
  const people = album.members + 1;
  return `Everyone in the album sees it: ${people} people.`;
}

function linkCount(links: number): string {
  return links === 0 ? 'it has no link now' : links === 1 ? 'it has a link now' : `it has ${links} links now`;
}
