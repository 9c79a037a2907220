import { useId } from 'react';
import type { Album } from './queries.ts';

/**
 * The question a contributor answers as they add their photos to someone else's album: may the
 * album's link show them? No until they say yes: only a photo's owner decides who outside the
 * family sees it, and the link is the album owner's.
 */
export function LinkConsent({ album, checked, onChange }: { album: Album; checked: boolean; onChange: (checked: boolean) => void }) {
  const hint = useId();
  return (
    <div className="album-consent">
      <label>
        <input type="checkbox" checked={checked} aria-describedby={hint} onChange={(event) => onChange(event.target.checked)} />
        <span>People with the album’s link can see the photos you add</span>
      </label>
      <p id={hint} className="muted album-consent-hint">
        {album.live_links > 0
          ? `“${album.name}” has a link now: ${album.owner_name} can send it to anyone. Everyone in the album sees your photos either way.`
          : `“${album.name}” has no link now, but ${album.owner_name} may make one. Everyone in the album sees your photos either way.`}{' '}
        You can change this later in each photo’s Details.
      </p>
    </div>
  );
}
