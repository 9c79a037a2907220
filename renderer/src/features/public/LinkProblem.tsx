import type { ReactNode } from 'react';
import type { ApiError } from '../../api/error-messages.ts';
import { Button } from '../../ui/Button.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { PublicBrand } from './PublicFrame.tsx';

export type Problem = 'expired' | 'gone' | 'offline' | 'other';

/** Which page a failed link request gets: the link's own state, or the way to it. */
export function problemOf(error: ApiError): Problem {
  if (error.code === 'share_expired') return 'expired';
  if (error.code === 'not_found') return 'gone';
  if (error.code === 'network') return 'offline';
  return 'other';
}

const PAGES: Record<Problem, { icon: IconName; title: string; text: ReactNode }> = {
  expired: {
    icon: 'clock',
    title: 'This link has expired',
    text: 'The person who shared it set it to stop working after a while. Ask them to send you a new link.',
  },
  gone: {
    icon: 'info',
    title: "This link doesn't work",
    text: 'It may have been turned off by the person who shared it, or part of the address is missing. Check that you have the whole link, or ask them for a new one.',
  },
  offline: {
    icon: 'info',
    title: "Can't reach the server",
    text: 'The computer that keeps these files did not answer. Check your internet connection and try again.',
  },
  other: {
    icon: 'info',
    title: 'Something went wrong',
    text: 'The files could not be shown just now. Try again in a moment.',
  },
};

/** A clear page for a link that cannot be opened: never a blank page or a stack trace. */
export function LinkProblem({ problem, detail, onRetry }: { problem: Problem; detail?: string; onRetry?: () => void }) {
  const page = PAGES[problem];
  return (
    <div className="center-page">
      <main className="card public-problem" id="main">
        <PublicBrand />
        <span className="public-problem-icon">
          <Icon name={page.icon} />
        </span>
        <h1>{page.title}</h1>
        <p>{page.text}</p>
        {problem === 'other' && detail && <p className="muted">{detail}</p>}
        {onRetry && (problem === 'offline' || problem === 'other') && (
          <Button variant="primary" onClick={onRetry}>
            Try again
          </Button>
        )}
      </main>
    </div>
  );
}
