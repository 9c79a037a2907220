import { useEffect, useState } from 'react';
import { Icon } from '../../../ui/Icon.tsx';

const TOAST_MS = 10_000;

/** What the bar last said (gone after a while) or what failed (kept until dismissed or replaced). */
export function useActionMessages() {
  const [said, setSaid] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [said]);

  const tell = (message: string) => {
    setFailure(null);
    setSaid(message);
  };
  const dismiss = () => {
    setSaid(null);
    setFailure(null);
  };
  return { said, failure, tell, setFailure, dismiss };
}

export function ActionToast({ said, failure, onDismiss }: { said: string | null; failure: string | null; onDismiss: () => void }) {
  if (!said && !failure) return null;
  return (
    <div className={failure ? 'photo-actions-toast photo-actions-toast-error' : 'photo-actions-toast'} role={failure ? 'alert' : 'status'}>
      <span>{failure ?? said}</span>
      <button type="button" className="btn btn-quiet photo-actions-toast-close" aria-label="Dismiss" onClick={onDismiss}>
        <Icon name="close" />
      </button>
    </div>
  );
}
