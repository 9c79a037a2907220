import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ApiError } from '../../api/error-messages.ts';
import { whenAgain } from '../../api/tryAgain.ts';
import { Button } from '../../ui/Button.tsx';
import { Field } from '../../ui/Field.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { Notice } from '../../ui/Notice.tsx';
import { unlockShare } from './api.ts';
import { PublicBrand } from './PublicFrame.tsx';

/** A password-protected link: the password is traded for a grant that this tab keeps. */
export function UnlockPage({ token, onUnlocked }: { token: string; onUnlocked: (kept: { grant: string; expires_at: number }) => void }) {
  const [password, setPassword] = useState('');
  const [blockedUntil, setBlockedUntil] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(() => Date.now());
  const unlock = useMutation({
    mutationFn: () => unlockShare(token, password),
    onSuccess: onUnlocked,
    onError: (error) => {
      // Too many wrong tries (429), or the server busy checking passwords (503): both say when to come back.
      if (error instanceof ApiError && error.retryAfterSeconds) {
        const until = Date.now() + error.retryAfterSeconds * 1000;
        setBusy(error.code !== 'rate_limited');
        setNow(Date.now());
        setBlockedUntil(until);
      }
    },
  });

  // While blocked, the wait counts down on screen and the button comes back by itself.
  useEffect(() => {
    if (blockedUntil === null) return;
    const timer = setInterval(() => {
      const current = Date.now();
      setNow(current);
      if (current >= blockedUntil) {
        setBlockedUntil(null);
        unlock.reset();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [blockedUntil, unlock]);

  const error = unlock.error instanceof ApiError ? unlock.error : null;
  const blocked = blockedUntil !== null && now < blockedUntil;
  const wrong = error?.code === 'wrong_password' ? 'That password is not right. Check it and try again.' : null;

  return (
    <div className="center-page">
      <main className="card" id="main">
        <PublicBrand />
        <span className="public-problem-icon">
          <Icon name="lock" />
        </span>
        <h1>This link is protected</h1>
        <p className="muted">Type the password that came with the link to see what was shared.</p>
        <form
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            if (!blocked && password) unlock.mutate();
          }}
        >
          <Field
            label="Password"
            type="password"
            autoComplete="off"
            autoFocus
            value={password}
            error={wrong}
            onChange={(event) => setPassword(event.target.value)}
          />
          {blocked && (
            <Notice tone="error">
              {busy
                ? `The server is busy checking passwords. You can try again ${whenAgain(blockedUntil, now)}.`
                : `Too many wrong tries. You can try again ${whenAgain(blockedUntil, now)}: the right password will work then.`}
            </Notice>
          )}
          {error && !wrong && !blocked && (
            <Notice tone="error">
              {error.code === 'share_expired' ? 'This link has expired. Ask the person who sent it for a new one.' : error.message}
            </Notice>
          )}
          <Button type="submit" variant="primary" block disabled={unlock.isPending || blocked || !password}>
            {unlock.isPending ? 'Checking…' : 'Open'}
          </Button>
        </form>
      </main>
    </div>
  );
}
