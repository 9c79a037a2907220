import { useEffect } from 'react';
import { Icon } from '../../ui/Icon.tsx';
import type { SharedInfo } from './api.ts';

// Made on first use: making a formatter loads the locale's data, which costs a phone's main thread
// tens of milliseconds; a page that never shows such a date should not pay for it while it starts.
let untilMade: Intl.DateTimeFormat | null = null;
const untilFormat = () => (untilMade ??= new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'long', year: 'numeric' }));

/** What a visitor is looking at and from whom, with what the link allows. */
export function ShareHeading({ info, title }: { info: SharedInfo; title: string }) {
  const owner = info.owner_name || 'Someone';
  useEffect(() => {
    document.title = `${title} · shared by ${owner}`;
  }, [title, owner]);
  return (
    <div className="public-heading">
      <h1>{title}</h1>
      <p className="public-from">
        <Icon name="person" />
        <span>
          Shared with you by <strong>{owner}</strong>
        </span>
      </p>
      <p className="muted">
        {info.expires_at !== null && <>This link works until {untilFormat().format(new Date(info.expires_at))}. </>}
        {!info.allow_download && <>{owner} turned off downloads for this link: you can look, but not save.</>}
      </p>
    </div>
  );
}
