import type { ReactNode } from 'react';
import { Link } from 'react-router';

/**
 * What was opened is not here (deleted, moved out, no longer shared): says why it may have gone
 * and leads back to where it was listed. A page's says so in a heading; a viewer's (`className`
 * viewer-missing) sits on the dark viewer without one.
 */
export function Gone({
  title,
  children,
  back,
  backLabel,
  className = 'albums-empty',
}: {
  title?: string;
  children: ReactNode;
  back: string;
  backLabel: string;
  className?: string;
}) {
  return (
    <div className={className} role="alert">
      {title && <h1>{title}</h1>}
      <p>{children}</p>
      <Link className="btn" to={back} replace>
        {backLabel}
      </Link>
    </div>
  );
}
